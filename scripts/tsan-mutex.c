// Shows Thread Sanitizer the lock handovers that Swift's `Synchronization.Mutex` makes in the kernel on Linux, for
// scripts/test's Thread Sanitizer run (loaded with LD_PRELOAD; never linked into Parley).
//
// Why: `Mutex.withLock` takes and releases the lock with an atomic compare-and-exchange that is inlined into our code,
// so in a `--sanitize=thread` build TSan sees it and knows that what one thread did under the lock happened before
// what the next one does. When the lock is contended, though, both ends go to `_MutexHandle._lockSlow` and
// `_unlockSlow` in the toolchain's libswiftSynchronization.so, which is not instrumented and hands the lock over with
// `futex(FUTEX_LOCK_PI / FUTEX_UNLOCK_PI)`: the kernel writes the new owner, and TSan, seeing no acquire and no
// release, reports every access under a contended lock as a data race. A two-thread program that appends to a
// `Mutex<[Int]>` (with a pause under the lock, so that the threads meet) is reported; the same with `NSLock`
// (pthread_mutex, which TSan intercepts) is not. Swift 6.3.1 on x86-64 Linux.
//
// What: this library defines those three functions under their mangled names, so that the calls from our
// instrumented code reach it first; each calls the toolchain's own and tells TSan what happened, on the lock's
// address (the same address the inlined fast path's atomics use): `__tsan_acquire` after the lock is taken,
// `__tsan_release` before it is released. That is what TSan's interceptors do for a pthread mutex: an annotation of
// real synchronization, not a suppression; a race outside the lock is still reported (checked with the same program
// and an unprotected counter beside the lock).
//
// If a toolchain renames or inlines these functions, this library is simply not called, and the run fails with the
// reports above again; if it is called but the toolchain's function cannot be found, it aborts saying so. In a
// process without TSan (swift-build, the symbolizer), `__tsan_acquire` is absent and the calls only pass through.
//
// Build: clang -shared -fPIC -O1 -o libtsan-mutex.so scripts/tsan-mutex.c -ldl

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

// Thread Sanitizer's annotation interface; weak, so that a process without TSan loads this library too.
void __tsan_acquire(void *address) __attribute__((weak));
void __tsan_release(void *address) __attribute__((weak));

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

#define HIDDEN __attribute__((visibility("hidden")))

// The toolchain's functions, found when the library loads.
HIDDEN void *parley_tsan_lockSlow;
HIDDEN void *parley_tsan_tryLockSlow;
HIDDEN void *parley_tsan_unlockSlow;

static void missing(void) {
    fprintf(stderr, "tsan-mutex: libswiftSynchronization has none of Mutex's slow paths under the expected names; "
                    "update scripts/tsan-mutex.c for this toolchain\n");
    abort();
}

static void *original(const char *name) {
    void *function = dlsym(RTLD_NEXT, name);
    return function ? function : (void *)missing;
}

__attribute__((constructor)) static void findOriginals(void) {
    parley_tsan_lockSlow = original(LOCK_SLOW);
    parley_tsan_tryLockSlow = original(TRY_LOCK_SLOW);
    parley_tsan_unlockSlow = original(UNLOCK_SLOW);
}

__attribute__((used)) HIDDEN void parley_tsan_acquire(void *handle) {
    if (__tsan_acquire) __tsan_acquire(handle);
}

__attribute__((used)) HIDDEN bool parley_tsan_acquireIfLocked(void *handle, bool locked) {
    if (locked && __tsan_acquire) __tsan_acquire(handle);
    return locked;
}

__attribute__((used)) HIDDEN void parley_tsan_release(void *handle) {
    if (__tsan_release) __tsan_release(handle);
}

// The wrappers are assembly because they take Swift's calling convention, which C cannot declare: on x86-64 the
// handle (`self`, borrowed, by address) comes in r13, `_lockSlow`'s thread id in edi, and a Bool goes back in al.
#if defined(__x86_64__)
__asm__(
    ".text\n"

    ".globl \"" LOCK_SLOW "\"\n"
    ".type \"" LOCK_SLOW "\",@function\n"
    "\"" LOCK_SLOW "\":\n"
    "    pushq %r13\n"                          // the handle, kept across the call (and the stack aligned for it)
    "    callq *parley_tsan_lockSlow(%rip)\n"   // takes the lock: edi and r13 are as our caller passed them
    "    popq %rdi\n"
    "    movq %rdi, %r13\n"
    "    jmp parley_tsan_acquire\n"             // returns to our caller

    ".globl \"" TRY_LOCK_SLOW "\"\n"
    ".type \"" TRY_LOCK_SLOW "\",@function\n"
    "\"" TRY_LOCK_SLOW "\":\n"
    "    pushq %r13\n"
    "    callq *parley_tsan_tryLockSlow(%rip)\n"
    "    popq %rdi\n"
    "    movq %rdi, %r13\n"
    "    movzbl %al, %esi\n"
    "    jmp parley_tsan_acquireIfLocked\n"     // returns the Bool in al

    ".globl \"" UNLOCK_SLOW "\"\n"
    ".type \"" UNLOCK_SLOW "\",@function\n"
    "\"" UNLOCK_SLOW "\":\n"
    "    pushq %r13\n"
    "    movq %r13, %rdi\n"
    "    callq parley_tsan_release\n"           // before the lock can pass to another thread
    "    popq %r13\n"
    "    jmp *parley_tsan_unlockSlow(%rip)\n"   // releases the lock and returns to our caller
);
#else
#error "tsan-mutex.c has wrappers for x86-64 only: add this architecture's Swift calling convention"
#endif
