#include <pcap/pcap.h>

#if defined(__linux__)
#include <stdio.h>
#include <sys/types.h>

/* glibc's fopencookie(3), declared here under a name of its own: <stdio.h> declares it only
   with _GNU_SOURCE, which the Swift Glibc module is built without. The functions struct has
   cookie_io_functions_t's layout (read, write, seek, close). A libpcap reader uses it to go
   on past damage in a capture (SplicedStream.swift). */
typedef ssize_t nearby_cookie_read_function(void *cookie, char *buffer, size_t size);
typedef int nearby_cookie_seek_function(void *cookie, long long *position, int whence);
typedef int nearby_cookie_close_function(void *cookie);
typedef struct {
    nearby_cookie_read_function *read;
    void *write;
    nearby_cookie_seek_function *seek;
    nearby_cookie_close_function *close;
} nearby_cookie_io_functions;
FILE *nearby_fopencookie(void *cookie, const char *mode, nearby_cookie_io_functions functions) __asm__("fopencookie");
#endif
