/* The registry of generated kernels.
 *
 * Static storage only: a statically initialized mutex and a heap array that
 * grows by doubling. Nothing registers itself at start-up (no global
 * constructors); <target>_register_kernels() functions made by
 * mytriton_add_kernels() call mytriton_register_kernel(). Entries are
 * pointers to the generated `const mytriton_kernel_info` objects, which live
 * as long as the program, so lookups can return them without copying. */
#include "mytriton/runtime.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static const mytriton_kernel_info **registry_items;
static int registry_count;
static int registry_capacity;

static const char *backend_of(const mytriton_kernel_info *info) {
    return info->backend != NULL ? info->backend : "";
}

/* The index of the kernel `name` of `backend` (NULL: any), or -1. Call with
 * the lock held. */
static int find_locked(const char *name, const char *backend) {
    int i;
    for (i = 0; i < registry_count; i++) {
        const mytriton_kernel_info *info = registry_items[i];
        if (strcmp(info->name, name) != 0) continue;
        if (backend == NULL || strcmp(backend_of(info), backend) == 0) return i;
    }
    return -1;
}

int mytriton_register_kernel(const mytriton_kernel_info *info) {
    int found, status = MYTRITON_SUCCESS;

    if (info == NULL || info->name == NULL || info->name[0] == '\0') {
        mytriton_set_last_error("mytriton_register_kernel: kernel info without a name");
        return MYTRITON_INVALID_VALUE;
    }
    pthread_mutex_lock(&registry_lock);
    found = find_locked(info->name, backend_of(info));
    if (found >= 0) {
        if (registry_items[found] != info) {
            mytriton_set_last_error(
                "mytriton_register_kernel: a different kernel named '%s' (backend '%s') "
                "is registered already",
                info->name, backend_of(info));
            status = MYTRITON_INVALID_VALUE;
        }
    } else {
        if (registry_count == registry_capacity) {
            int capacity = registry_capacity ? registry_capacity * 2 : 16;
            const mytriton_kernel_info **items =
                realloc((void *)registry_items, (size_t)capacity * sizeof *items);
            if (items == NULL) {
                pthread_mutex_unlock(&registry_lock);
                mytriton_set_last_error("mytriton_register_kernel: out of memory");
                return MYTRITON_OUT_OF_MEMORY;
            }
            registry_items = items;
            registry_capacity = capacity;
        }
        registry_items[registry_count++] = info;
    }
    pthread_mutex_unlock(&registry_lock);
    return status;
}

const mytriton_kernel_info *mytriton_find_kernel(const char *name, const char *backend) {
    const mytriton_kernel_info *info = NULL;
    int found;

    if (name == NULL) return NULL;
    pthread_mutex_lock(&registry_lock);
    found = find_locked(name, backend);
    if (found >= 0) info = registry_items[found];
    pthread_mutex_unlock(&registry_lock);
    return info;
}

int mytriton_kernel_count(void) {
    int count;
    pthread_mutex_lock(&registry_lock);
    count = registry_count;
    pthread_mutex_unlock(&registry_lock);
    return count;
}

const mytriton_kernel_info *mytriton_kernel_at(int index) {
    const mytriton_kernel_info *info = NULL;
    pthread_mutex_lock(&registry_lock);
    if (index >= 0 && index < registry_count) info = registry_items[index];
    pthread_mutex_unlock(&registry_lock);
    return info;
}

int mytriton_launch(const char *name, const char *backend, void *stream, void *const *args,
                    const mytriton_grid *grid) {
    const mytriton_kernel_info *info = mytriton_find_kernel(name, backend);
    int i;

    if (info == NULL) {
        mytriton_set_last_error("mytriton_launch: no kernel named '%s'%s%s%s registered",
                                name != NULL ? name : "(null)",
                                backend != NULL ? " for backend '" : "",
                                backend != NULL ? backend : "", backend != NULL ? "'" : "");
        return MYTRITON_NOT_FOUND;
    }
    if (info->launch == NULL) {
        mytriton_set_last_error(
            "mytriton_launch: kernel '%s' (backend '%s') has no generic launcher", info->name,
            backend_of(info));
        return MYTRITON_INVALID_VALUE;
    }
    if (info->num_args > 0 && args == NULL) {
        mytriton_set_last_error("mytriton_launch: kernel '%s' takes %d arguments, none given",
                                info->name, info->num_args);
        return MYTRITON_INVALID_VALUE;
    }
    for (i = 0; i < info->num_args; i++) {
        if (args[i] != NULL) continue;
        mytriton_set_last_error(
            "mytriton_launch: kernel '%s': args[%d] (argument '%s') is NULL; it must point at "
            "the argument's value",
            info->name, i, info->arg_names != NULL ? info->arg_names[i] : "?");
        return MYTRITON_INVALID_VALUE;
    }
    if (info->grid == NULL && grid == NULL) {
        mytriton_set_last_error(
            "mytriton_launch: kernel '%s' has no grid expression; "
            "pass a mytriton_grid",
            info->name);
        return MYTRITON_INVALID_VALUE;
    }
    return info->launch(stream, args, info->grid == NULL ? grid : NULL);
}

/* ---- Kernel attributes --------------------------------------------------
 * A small list of (kernel, device) -> attributes, filled by the generated
 * attribute functions on first use. */
typedef struct attr_entry {
    const void *kernel;
    mytriton_kernel_attributes attributes;
} attr_entry;

static attr_entry *attr_items;
static int attr_count, attr_capacity;

int mytriton_attributes_cached(const void *kernel, int device, mytriton_kernel_attributes *out) {
    int i, found = 0;
    pthread_mutex_lock(&registry_lock);
    for (i = 0; i < attr_count; i++) {
        if (attr_items[i].kernel == kernel && attr_items[i].attributes.device == device) {
            *out = attr_items[i].attributes;
            found = 1;
            break;
        }
    }
    pthread_mutex_unlock(&registry_lock);
    return found;
}

void mytriton_attributes_store(const void *kernel, const mytriton_kernel_attributes *attributes) {
    pthread_mutex_lock(&registry_lock);
    if (attr_count == attr_capacity) {
        int capacity = attr_capacity ? attr_capacity * 2 : 16;
        attr_entry *items = realloc(attr_items, (size_t)capacity * sizeof *items);
        if (items == NULL) {
            pthread_mutex_unlock(&registry_lock);
            return; /* not cached: read again next time */
        }
        attr_items = items;
        attr_capacity = capacity;
    }
    attr_items[attr_count].kernel = kernel;
    attr_items[attr_count].attributes = *attributes;
    attr_count++;
    pthread_mutex_unlock(&registry_lock);
}

int mytriton_kernel_get_attributes(const char *name, const char *backend,
                                   mytriton_kernel_attributes *out) {
    const mytriton_kernel_info *info = mytriton_find_kernel(name, backend);

    if (info == NULL) {
        mytriton_set_last_error("mytriton_kernel_get_attributes: no kernel named '%s' registered",
                                name != NULL ? name : "(null)");
        return MYTRITON_NOT_FOUND;
    }
    if (out == NULL || info->attributes == NULL) {
        mytriton_set_last_error(
            "mytriton_kernel_get_attributes: kernel '%s' (backend '%s') has no device "
            "attributes%s",
            info->name, backend_of(info),
            info->tuner != NULL ? " (a dispatcher: query its variants)" : "");
        return MYTRITON_INVALID_VALUE;
    }
    return info->attributes(out);
}

int mytriton_preload(const char *name, const char *backend) {
    int i, count, status;
    if (name != NULL) {
        const mytriton_kernel_info *info = mytriton_find_kernel(name, backend);
        if (info == NULL) {
            mytriton_set_last_error("mytriton_preload: no kernel named '%s' registered", name);
            return MYTRITON_NOT_FOUND;
        }
        return info->preload != NULL ? info->preload() : MYTRITON_SUCCESS;
    }
    count = mytriton_kernel_count();
    for (i = 0; i < count; i++) {
        const mytriton_kernel_info *info = mytriton_kernel_at(i);
        if (info == NULL || info->preload == NULL) continue;
        if (backend != NULL && strcmp(backend_of(info), backend) != 0) continue;
        status = info->preload();
        if (status != MYTRITON_SUCCESS) return status;
    }
    return MYTRITON_SUCCESS;
}
