// SPDX-License-Identifier: Apache-2.0
// The native error types, for every backend. Each says whether anything was
// submitted: InputError and its subclasses (and PythonError) are thrown before
// the runtime's launch call, so the call may still take the original path;
// LaunchError means the launch call itself failed.
#pragma once

#include <Python.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace fastlaunch {

// Bad input found before anything was submitted; _core.InputError in Python,
// with `reason`, a slug the engine counts (bad_value, bad_plan, ...). Every
// subclass is a pre-submission error: the call may still take the original path.
struct InputError : std::runtime_error {
  explicit InputError(const std::string& what, const char* reason = nullptr)
      : std::runtime_error(what), reason_(reason) {}
  // The slug given at the throw site, else the class default.
  const char* reason() const { return reason_ != nullptr ? reason_ : DefaultReason(); }
  const char* explicit_reason() const { return reason_; }  // NULL: the class default
  virtual const char* DefaultReason() const { return "bad_value"; }

 private:
  const char* reason_;
};

// The grid is outside the ABI's limits or not 3 ints; raised before anything
// is packed. Reasons: grid_out_of_range (default), grid_rank, grid_type,
// grid_resolver_error.
struct GridError : InputError {
  using InputError::InputError;
  const char* DefaultReason() const override { return "grid_out_of_range"; }
};

// A Python exception that is not an `Exception` (KeyboardInterrupt,
// SystemExit, ...) was raised by user code while reading a value. Native code
// never clears those: this carries it, fetched, to the binding layer, which
// restores it. Nothing has been submitted when it is thrown.
class PythonError : public std::exception {
 public:
  PythonError();  // fetches the current Python error (one must be set)
  // Sets the carried exception as the current Python error again (once).
  void Restore() const;
  const char* what() const noexcept override { return "Python exception"; }

 private:
  struct Fetched;
  std::shared_ptr<Fetched> fetched_;
};

// The device's current context is not the plan's device; nothing launched.
struct DeviceMismatch : InputError {
  using InputError::InputError;
};

// The driver call itself failed; the kernel may or may not have been queued.
struct LaunchError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// After a failed C-API call: clears the pending error when it is an
// `Exception`, else throws PythonError (the error is never swallowed).
// (These two are defined in plan.cpp.)
void ClearOrThrow();

// type name and repr() of a value for messages, the repr cut to 57
// characters (never inside one) when longer than 60; valid UTF-8.
std::string DescribeValue(PyObject* value);

}  // namespace fastlaunch
