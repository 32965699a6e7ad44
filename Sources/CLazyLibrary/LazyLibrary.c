// Opening a library on first use: see LazyLibrary.h.
#include "LazyLibrary.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static void open_and_resolve(LazyLibrary *library) {
    void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        snprintf(library->failure, sizeof library->failure, "%s", dlerror());
        return;
    }
    for (size_t index = 0; index < library->count; index++) {
        void *address = dlsym(handle, library->names[index]);
        if (address == NULL) {
            snprintf(library->failure, sizeof library->failure, "%s has no function %s", library->soname,
                     library->names[index]);
            return;
        }
        library->functions[index] = (LazyLibraryFunction)address;
    }
}

const char *LazyLibrary_load(LazyLibrary *library) {
    if (!atomic_load_explicit(&library->attempted, memory_order_acquire)) {
        pthread_mutex_lock(&library->lock);
        if (!atomic_load_explicit(&library->attempted, memory_order_relaxed)) {
            open_and_resolve(library);
            atomic_store_explicit(&library->attempted, true, memory_order_release);
        }
        pthread_mutex_unlock(&library->lock);
    }
    return library->failure[0] == '\0' ? NULL : library->failure;
}

LazyLibraryFunction LazyLibrary_function(LazyLibrary *library, size_t index) {
    const char *failure = LazyLibrary_load(library);
    if (failure != NULL) {
        fprintf(stderr, "ztprov: cannot use %s: %s\n", library->label, failure);
        abort();
    }
    return library->functions[index];
}
