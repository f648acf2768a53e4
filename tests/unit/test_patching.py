# SPDX-License-Identifier: Apache-2.0
"""Transactional patch sets: all or nothing, restored by identity."""

import pytest

from fastlaunch.patching import PatchSet


class Owner:
    def method(self):
        return "original"

    value = 1


class Refuses:
    """setattr fails for one attribute, like a slot or a frozen class."""

    def __setattr__(self, name, value):
        if name == "blocked":
            msg = "blocked"
            raise AttributeError(msg)
        object.__setattr__(self, name, value)


def new_method(self):
    return "patched"


def make(fail_at=None):
    target = Refuses()
    target.a = "A"
    patches = PatchSet("test")
    steps = [(Owner, "method", new_method), (Owner, "value", 2), (Owner, "added", 3),
             (target, "a", "A2"), (target, "fresh", "F")]
    if fail_at is not None:
        steps.insert(fail_at, (target, "blocked", 0))
    for owner, name, value in steps:
        patches.add(owner, name, value)
    return patches, target


@pytest.mark.parametrize("fail_at", range(6))
def test_failure_at_each_step_restores_everything(fail_at):
    original_method = Owner.__dict__["method"]
    patches, target = make(fail_at)
    with pytest.raises(AttributeError, match="blocked"):
        patches.install()
    assert Owner.__dict__["method"] is original_method
    assert Owner.value == 1
    assert not hasattr(Owner, "added")
    assert target.a == "A"
    assert not hasattr(target, "fresh")
    assert not patches.installed


def test_install_twice_is_a_noop_that_says_so(caplog):
    patches, _ = make()
    assert patches.install() is True
    caplog.set_level("INFO", logger="fastlaunch.patching")
    assert patches.install() is False
    assert "already installed" in caplog.text
    patches.uninstall()


def test_uninstall_restores_originals_by_identity():
    original_method = Owner.__dict__["method"]
    patches, target = make()
    patches.install()
    assert Owner().method() == "patched" and Owner.added == 3 and target.fresh == "F"
    assert patches.uninstall() is True
    assert Owner.__dict__["method"] is original_method
    assert not hasattr(Owner, "added") and not hasattr(target, "fresh")
    assert patches.uninstall() is False


def test_inherited_attribute_is_removed_not_copied():
    class Child(Owner):
        pass

    patches = PatchSet("child").add(Child, "method", new_method)
    patches.install()
    assert Child().method() == "patched"
    patches.uninstall()
    assert "method" not in Child.__dict__ and Child().method() == "original"


def test_cannot_add_while_installed():
    patches, _ = make()
    patches.install()
    with pytest.raises(RuntimeError, match="while installed"):
        patches.add(Owner, "x", 1)
    patches.uninstall()


def test_uninstall_racing_install_never_leaves_a_partial_patch():
    """The uninstall starts while install is between two attributes."""
    import threading

    inside, go = threading.Event(), threading.Event()

    class Slow:
        def __setattr__(self, name, value):
            if name == "b" and value == "patched":
                inside.set()
                go.wait(0.5)  # the racing uninstall runs now unless it waits for install
            object.__setattr__(self, name, value)

    target = Slow()
    target.a, target.b = "original", "original"
    patches = PatchSet("race").add(target, "a", "patched").add(target, "b", "patched")
    installer = threading.Thread(target=patches.install)
    installer.start()
    assert inside.wait(5)
    remover = threading.Thread(target=patches.uninstall)
    remover.start()
    remover.join(0.2)
    go.set()
    installer.join()
    remover.join()
    state = (target.a, target.b)
    assert state == ("original", "original") and not patches.installed


def test_an_attribute_that_cannot_be_restored_stays_applied_and_installed():
    """A partial restore never reports uninstalled; a retry finishes the job."""
    class Locking(type):
        locked = False

        def __setattr__(cls, name, value):
            if Locking.locked:
                msg = "read-only for now"
                raise TypeError(msg)
            super().__setattr__(name, value)

    class Stubborn(metaclass=Locking):
        value = "original"

    class Plain:
        value = "original"

    patches = PatchSet("partial")
    patches.add(Plain, "value", "patched")
    patches.add(Stubborn, "value", "patched")
    patches.install()
    Locking.locked = True
    with pytest.raises(RuntimeError, match="could not restore value: read-only"):
        patches.uninstall()
    assert patches.installed and Stubborn.value == "patched" and Plain.value == "original"
    Locking.locked = False
    assert patches.uninstall() is True
    assert not patches.installed and Stubborn.value == "original"
