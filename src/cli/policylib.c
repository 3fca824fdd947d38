/* hta sim --policy-lib: a policy of the user's from a shared library
 * (hta/policy.h): the file (a regular file, an ELF shared object of this
 * machine whose segments lie within it), dlopen, the entry symbol (in an
 * executable segment), the ABI the library was built for, the table it
 * returns (readable, its name readable, its functions in executable
 * segments), then the table's own check (hta_policy_check); each refusal
 * a message naming the library and exit 3, before any work.
 *
 * What is checked is what can be without running the library's code: a
 * library whose entry or callbacks crash when called still crashes (the
 * command dies of the signal, its temporary outputs removed: cli.c). */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hta/sim.h"
#include "cli.h"
#include "policylib.h"

/* The library at path refused: closed, the words printed; the exit
 * code. */
static int refused(void *h, const char *path, hta_diag *d)
{
    if (h)
        dlclose(h);
    d->path = path;
    return cli_report(HTA_ERR_INPUT, d);
}

/* This machine's ELF identity: the class, byte order and machine a
 * library must have to load (0: not checked on this architecture). */
#if defined(__x86_64__)
#define HOST_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define HOST_MACHINE EM_AARCH64
#elif defined(__i386__)
#define HOST_MACHINE EM_386
#elif defined(__powerpc64__)
#define HOST_MACHINE EM_PPC64
#elif defined(__s390x__)
#define HOST_MACHINE EM_S390
#elif defined(__riscv)
#define HOST_MACHINE EM_RISCV
#else
#define HOST_MACHINE 0
#endif

typedef ElfW(Ehdr) ehdr;
typedef ElfW(Phdr) phdr;

static int host_little(void)
{
    const uint16_t one = 1;
    return *(const unsigned char *)&one == 1;
}

/* What dlopen would map, checked from the file: an ELF shared object of
 * this machine whose program headers and segments lie within the file
 * (a truncated library made dlopen die of SIGBUS).  0, or the words of
 * the refusal in d. */
static int check_elf(int fd, const char *path, off_t size, hta_diag *d)
{
    ehdr e;
    const char *what = "expected a shared library of a policy, found";
    if (pread(fd, &e, sizeof e, 0) != (ssize_t)sizeof e ||
        memcmp(e.e_ident, ELFMAG, SELFMAG) != 0) {
        hta_diag_set(d, HTA_ERR_INPUT, path, 0,
                     "%s one that does not load (not an ELF file)", what);
        return -1;
    }
    int cls = sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32;
    int data = host_little() ? ELFDATA2LSB : ELFDATA2MSB;
    if (e.e_ident[EI_CLASS] != cls || e.e_ident[EI_DATA] != data ||
        (HOST_MACHINE && e.e_machine != HOST_MACHINE)) {
        hta_diag_set(d, HTA_ERR_INPUT, path, 0,
                     "%s one for another machine (ELF class %d, byte order "
                     "%d, machine %d; this one: %d, %d, %d)", what,
                     e.e_ident[EI_CLASS], e.e_ident[EI_DATA], e.e_machine,
                     cls, data, HOST_MACHINE);
        return -1;
    }
    if (e.e_type != ET_DYN) {
        hta_diag_set(d, HTA_ERR_INPUT, path, 0,
                     "%s an ELF file of type %d, not a shared object (build "
                     "it with -shared -fPIC)", what, e.e_type);
        return -1;
    }
    if (e.e_phentsize != sizeof(phdr) || e.e_phnum == 0 ||
        e.e_phnum > 4096) {
        hta_diag_set(d, HTA_ERR_INPUT, path, 0,
                     "%s a damaged one (%d program headers of %d bytes; "
                     "expected 1 to 4096 of %d)", what, e.e_phnum,
                     e.e_phentsize, (int)sizeof(phdr));
        return -1;
    }
    if (e.e_phoff > (uint64_t)size ||
        (uint64_t)e.e_phnum * sizeof(phdr) > (uint64_t)size - e.e_phoff) {
        hta_diag_set(d, HTA_ERR_INPUT, path, 0,
                     "%s a truncated or damaged one (program headers at "
                     "byte %llu, %d of them, the file has %lld bytes)",
                     what, (unsigned long long)e.e_phoff, e.e_phnum,
                     (long long)size);
        return -1;
    }
    /* the loadable segments' file ranges, for the dynamic segment's */
    enum { MAX_LOADS = 64 };
    uint64_t lo[MAX_LOADS], hi[MAX_LOADS];
    int loads = 0, dyn = -1;
    phdr dph;
    memset(&dph, 0, sizeof dph);
    for (int i = 0; i < e.e_phnum; i++) {
        phdr ph;
        if (pread(fd, &ph, sizeof ph, (off_t)(e.e_phoff + i * sizeof ph)) !=
            (ssize_t)sizeof ph) {
            hta_diag_set(d, HTA_ERR_INPUT, path, 0,
                         "%s a truncated one (program header %d cannot be "
                         "read)", what, i);
            return -1;
        }
        if (ph.p_type != PT_LOAD && ph.p_type != PT_DYNAMIC)
            continue;
        if (ph.p_offset > (uint64_t)size ||
            ph.p_filesz > (uint64_t)size - ph.p_offset) {
            hta_diag_set(d, HTA_ERR_INPUT, path, 0,
                         "%s a truncated or damaged one (segment %d: %llu "
                         "bytes from byte %llu, the file has %lld)", what, i,
                         (unsigned long long)ph.p_filesz,
                         (unsigned long long)ph.p_offset, (long long)size);
            return -1;
        }
        /* what the loader maps: no wrap, and within 2^40 bytes */
        if (ph.p_memsz > ((uint64_t)1 << 40) ||
            ph.p_vaddr > UINTPTR_MAX - ph.p_memsz ||
            (ph.p_type == PT_LOAD && ph.p_filesz > ph.p_memsz)) {
            hta_diag_set(d, HTA_ERR_INPUT, path, 0,
                         "%s a damaged one (segment %d: %llu bytes in "
                         "memory at %#llx, %llu in the file)", what, i,
                         (unsigned long long)ph.p_memsz,
                         (unsigned long long)ph.p_vaddr,
                         (unsigned long long)ph.p_filesz);
            return -1;
        }
        if (ph.p_type == PT_DYNAMIC) {
            dyn = i;
            dph = ph;
        } else if (loads < MAX_LOADS) {
            lo[loads] = ph.p_vaddr;
            hi[loads++] = ph.p_vaddr + ph.p_filesz;
        } else {
            loads++;
        }
    }
    if (loads == 0) {
        hta_diag_set(d, HTA_ERR_INPUT, path, 0,
                     "%s a damaged one (no loadable segment)", what);
        return -1;
    }
    /* the loader reads the dynamic section where a loadable segment
     * maps it: it must lie within one */
    int inside = dyn < 0 || loads > MAX_LOADS;
    for (int k = 0; !inside && k < loads; k++)
        inside = dph.p_vaddr >= lo[k] && dph.p_filesz <= hi[k] - lo[k] &&
                 dph.p_vaddr - lo[k] <= hi[k] - lo[k] - dph.p_filesz;
    if (!inside) {
        hta_diag_set(d, HTA_ERR_INPUT, path, 0,
                     "%s a damaged one (the dynamic segment, %llu bytes at "
                     "%#llx, lies in no loadable segment)", what,
                     (unsigned long long)dph.p_filesz,
                     (unsigned long long)dph.p_vaddr);
        return -1;
    }
    return 0;
}

/* The flags (PF_R, PF_W, PF_X) of the loaded segment holding [a, a + n),
 * of any object loaded; -1 when none holds it whole. */
typedef struct seg_ask {
    uintptr_t a, n;
    int flags;
} seg_ask;

static int seg_of(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    seg_ask *q = arg;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const phdr *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (q->a >= lo && q->a - lo < ph->p_memsz &&
            q->n <= ph->p_memsz - (q->a - lo)) {
            q->flags = (int)ph->p_flags;
            return 1;
        }
    }
    return 0;
}

static int segment_flags(const void *p, size_t n)
{
    seg_ask q = {(uintptr_t)p, n, -1};
    dl_iterate_phdr(seg_of, &q);
    return q.flags;
}

/* 1 when the n bytes at p can be read (a write of them to a pipe fails
 * with EFAULT, not a signal, where they cannot); n <= PIPE_BUF. */
static int readable(const void *p, size_t n)
{
    int fd[2];
    if (pipe(fd) != 0)
        return 1; /* cannot tell: the check below it will run */
    ssize_t w;
    do
        w = write(fd[1], p, n);
    while (w < 0 && errno == EINTR);
    close(fd[0]);
    close(fd[1]);
    return w == (ssize_t)n;
}

/* A code address: the entry, or a function of the table (NULL allowed
 * where optional). */
static int is_code(const void *f)
{
    int fl = segment_flags(f, 1);
    return fl >= 0 && (fl & PF_X);
}

static int fn_code(void (*f)(void))
{
    const void *p;
    memcpy(&p, &f, sizeof p); /* ISO C: no function-to-object cast */
    return is_code(p);
}

/* The table the entry returned, as far as it can be checked without
 * calling it: readable, its name readable up to its end, its functions
 * code.  0, or the words in d. */
static int check_table(const hta_policy *p, const char *path, hta_diag *d)
{
    if (!readable(p, sizeof *p)) {
        hta_diag_set(d, HTA_ERR_INPUT, path, 0,
                     "expected %s to return a policy table, found an "
                     "address that cannot be read (%p)", HTA_POLICY_ENTRY,
                     (const void *)p);
        return -1;
    }
    if (p->abi != HTA_POLICY_ABI) /* another layout: the gate says so */
        return 0;
    const char *nm = p->name;
    size_t k = 0;
    while (nm && k < 64 && readable(nm + k, 1) && nm[k])
        k++;
    if (nm && (k == 64 || !readable(nm + k, 1))) {
        hta_diag_set(d, HTA_ERR_INPUT, path, 0,
                     "expected a policy name of 1 to 32 of a-z, 0-9, '-' "
                     "and '_', found %s",
                     k == 64 ? "one without an end" :
                               "an address that cannot be read");
        return -1;
    }
    struct {
        const char *name;
        void (*f)(void);
    } fns[4];
    memcpy(&fns[0].f, &p->route, sizeof fns[0].f);
    memcpy(&fns[1].f, &p->serve, sizeof fns[1].f);
    memcpy(&fns[2].f, &p->init, sizeof fns[2].f);
    memcpy(&fns[3].f, &p->free, sizeof fns[3].f);
    fns[0].name = "route";
    fns[1].name = "serve";
    fns[2].name = "init";
    fns[3].name = "free";
    for (int i = 0; i < 4; i++)
        if (fns[i].f && !fn_code(fns[i].f)) {
            const void *a;
            memcpy(&a, &fns[i].f, sizeof a);
            hta_diag_set(d, HTA_ERR_INPUT, path, 0,
                         "expected the table's %s to be a function, found "
                         "an address in no executable segment (%p)",
                         fns[i].name, a);
            return -1;
        }
    return 0;
}

int cli_policy_lib(const char *path, const hta_policy **out, void **handle)
{
    hta_diag d;
    hta_diag_clear(&d);
    *out = NULL;
    *handle = NULL;
    /* a bare name would be looked up in the system's library paths */
    char local[4096];
    snprintf(local, sizeof local, "%s%s", strchr(path, '/') ? "" : "./",
             path);
    /* missing, unreadable: as every input; not a regular file (a FIFO
     * would block the open for ever): refused before it is opened */
    struct stat sb;
    if (stat(path, &sb) != 0)
        return cli_report(hta_diag_errno(&d, path, "cannot open", errno), &d);
    if (!S_ISREG(sb.st_mode)) {
        hta_diag_set(&d, HTA_ERR_INPUT, path, 0,
                     "expected a shared library of a policy (a regular "
                     "file), found %s",
                     S_ISDIR(sb.st_mode)  ? "a directory" :
                     S_ISFIFO(sb.st_mode) ? "a FIFO" :
                     S_ISCHR(sb.st_mode)  ? "a character device" :
                     S_ISBLK(sb.st_mode)  ? "a block device" :
                     S_ISSOCK(sb.st_mode) ? "a socket" : "a special file");
        return refused(NULL, path, &d);
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return cli_report(hta_diag_errno(&d, path, "cannot open", errno), &d);
    int bad = fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ?
                  (hta_diag_set(&d, HTA_ERR_INPUT, path, 0,
                                "expected a shared library of a policy (a "
                                "regular file), found a special file"),
                   -1) :
                  check_elf(fd, path, sb.st_size, &d);
    close(fd);
    if (bad)
        return refused(NULL, path, &d);
    void *h = dlopen(local, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        const char *at = why ? strstr(why, ": ") : NULL;
        hta_diag_set(&d, HTA_ERR_INPUT, path, 0,
                     "expected a shared library of a policy, found one "
                     "that does not load (%s)",
                     at ? at + 2 : why ? why : "?");
        return cli_report(HTA_ERR_INPUT, &d);
    }
    dlerror();
    hta_policy_entry_fn entry;
    void *sym = dlsym(h, HTA_POLICY_ENTRY);
    memcpy(&entry, &sym, sizeof entry); /* ISO C: no object-to-function
                                           pointer cast */
    if (!sym) {
        hta_diag_set(&d, HTA_ERR_INPUT, path, 0,
                     "expected the entry symbol %s (hta/policy.h), found "
                     "none", HTA_POLICY_ENTRY);
        return refused(h, path, &d);
    }
    if (!is_code(sym)) {
        hta_diag_set(&d, HTA_ERR_INPUT, path, 0,
                     "expected the entry symbol %s to be a function, found "
                     "data (in no executable segment)", HTA_POLICY_ENTRY);
        return refused(h, path, &d);
    }
    cli_foreign(1);
    const hta_policy *p = entry(HTA_POLICY_ABI);
    cli_foreign(0);
    if (!p) {
        hta_diag_set(&d, HTA_ERR_INPUT, path, 0,
                     "expected a policy of ABI %d, found none: the library "
                     "was built for another", HTA_POLICY_ABI);
        return refused(h, path, &d);
    }
    if (check_table(p, path, &d) != 0 || hta_policy_check(p, &d) != HTA_OK)
        return refused(h, path, &d);
    *out = p;
    *handle = h;
    return 0;
}
