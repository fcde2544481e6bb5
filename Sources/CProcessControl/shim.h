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
