#if defined(__linux__)
#include <sys/prctl.h>

/* prctl(2) is variadic, which Swift does not import: these call it with the arguments
   PR_SET_CHILD_SUBREAPER and PR_GET_CHILD_SUBREAPER take. */

/* Makes the calling process the reaper of its descendants: one whose parent ends is
   re-parented to it, not to init. 0 on success, -1 with errno set otherwise. */
static inline int nearby_set_child_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL);
}

/* 1 when the calling process is the reaper of its descendants, 0 when it is not. */
static inline int nearby_is_child_subreaper(void) {
    int flag = 0;
    return prctl(PR_GET_CHILD_SUBREAPER, (unsigned long)&flag, 0UL, 0UL, 0UL) == 0 && flag != 0;
}
#else
/* No subreapers outside Linux: a process's orphans go to init. */
static inline int nearby_set_child_subreaper(void) { return -1; }
static inline int nearby_is_child_subreaper(void) { return 0; }
#endif

#include <errno.h>
#include <spawn.h>

/* Adds a change of working directory to `path` to spawn file actions: glibc (2.29 and later)
   and macOS (10.15 and later) have it as posix_spawn_file_actions_addchdir_np, which glibc
   declares only under _GNU_SOURCE. 0 on success, an errno value otherwise (ENOSYS where the C
   library has no such action). */
#if defined(__GLIBC__) || defined(__APPLE__)
#if defined(__GLIBC__) && !defined(__USE_GNU)
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *__restrict,
                                                const char *__restrict);
#endif
static inline int nearby_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}
#else
static inline int nearby_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
    (void)actions;
    (void)path;
    return ENOSYS;
}
#endif
