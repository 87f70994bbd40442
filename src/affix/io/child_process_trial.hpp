#pragma once
// Trying risky reading in a child process first. libhdf5 trusts the files it reads more than affix
// trusts a run's output: a damaged trajectory.h5 can crash it (a few random damages in a thousand do,
// in HDF5 1.10's attribute and chunk code) where affix promises one line naming the file. So the
// readers of trajectory.h5 do their reading once in a forked child: if that crashes, the parent
// reports the file as damaged instead of crashing; if it ends in an InputError, the parent throws the
// same; only if it succeeds does the parent do the same reading for real.
#include <functional>
#include <string>

namespace affix {

/// Runs `work` in a forked child process and waits for it. Throws InputError(crash_message + the
/// signal) when the child is killed by a signal, and InputError with the child's own message when
/// `work` throws one there. Returns when `work` succeeded, or when the child could not be started or
/// failed some other way (the caller's own run of `work` then meets the same failure).
void try_in_child_process(const std::function<void()>& work, const std::string& crash_message);

}  // namespace affix
