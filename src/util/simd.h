/* tc5 internal — compiling a hot function for several x86-64 levels (GCC's
 * target_clones picks one when the library loads); elsewhere a plain build. */
#ifndef TC5_SIMD_H
#define TC5_SIMD_H

/* not under ThreadSanitizer: the clones' resolvers run while the dynamic
 * loader relocates, before the TSan runtime exists, and crash in its entry
 * hook (scripts/build.sh --tsan) */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__)
#define TC5_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define TC5_CLONES
#endif

#endif
