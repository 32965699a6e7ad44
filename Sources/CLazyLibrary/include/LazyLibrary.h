// A shared library opened with dlopen on first use, for the C targets that forward a library's functions to
// it: only the commands that call the library map it (and the libraries it brings), and a machine without it
// still runs every other command. This target owns no library; each user names the one it loads.
#ifndef ZTPROV_LAZY_LIBRARY_H
#define ZTPROV_LAZY_LIBRARY_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/// A forwarder is hidden, so no shared library ever binds to it instead of to the library it forwards to.
#define LAZY_LIBRARY_FORWARDER __attribute__((visibility("hidden")))

/// A resolved function, kept untyped until a forwarder casts it back to its own prototype.
typedef void (*LazyLibraryFunction)(void);

/// One library and the functions its forwarders need, loaded at most once however many threads ask.
typedef struct {
    /// The name the forwarders' messages use, such as `libpq`.
    const char *label;
    /// What dlopen opens, such as `libpq.so.5`.
    const char *soname;
    const char *const *names;
    LazyLibraryFunction *functions;
    size_t count;
    pthread_mutex_t lock;
    atomic_bool attempted;
    char failure[512];
} LazyLibrary;

/// Opens the library and resolves every function, the first time only. Returns NULL once they are all
/// there, or why not (the text stays valid for the life of the process).
const char *LazyLibrary_load(LazyLibrary *library);

/// The function at `index`, loading the library first. A forwarder has no way to report a library that
/// cannot load, so this ends the process saying why; callers check `LazyLibrary_load` before the first call.
LazyLibraryFunction LazyLibrary_function(LazyLibrary *library, size_t index);

#define LAZY_LIBRARY_INDEX(name) lazy_library_index_##name,
#define LAZY_LIBRARY_NAME(name) #name,

/// Defines `variable`, the library `soname` with the functions the X-macro `FUNCTIONS` lists.
#define LAZY_LIBRARY_DEFINE(variable, soname, FUNCTIONS)                                                   \
    enum { FUNCTIONS(LAZY_LIBRARY_INDEX) variable##_count };                                               \
    static const char *const variable##_names[] = {FUNCTIONS(LAZY_LIBRARY_NAME)};                          \
    static LazyLibraryFunction variable##_functions[variable##_count];                                     \
    static LazyLibrary variable = {                                                                        \
        #variable, soname, variable##_names, variable##_functions, variable##_count,                       \
        PTHREAD_MUTEX_INITIALIZER, false, ""}

/// The function `name` of `variable`, with the prototype the library's header declares.
#define LAZY_LIBRARY_CALL(variable, name)                                                                  \
    ((__typeof__(name) *)LazyLibrary_function(&(variable), lazy_library_index_##name))

#endif
