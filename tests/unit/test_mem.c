/* Memory helpers (buf.h): the growable array with its huge-page hint, the
 * huge-page allocations, and the reader's reservation for the whole file
 * when the file's first window predicts it short. */
#define _DEFAULT_SOURCE /* madvise, mincore */
#include "helpers.h"

#include "core/buf.h"

/* 1 when [p, p + bytes) lies inside one mapping of /proc/self/maps (the
 * kernel grows a block by mremap only then; a hint on part of a block's
 * mapping splits it), -1 when the maps cannot be read. */
static int one_mapping(const void *p, size_t bytes)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return -1;
    uintptr_t a = (uintptr_t)p, b = a + bytes;
    unsigned long lo, hi;
    char line[512];
    int inside = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo <= a && a < hi) {
            inside = b <= hi;
            break;
        }
    fclose(f);
    return inside;
}

/* Growing by doubling past many huge pages keeps every element, and the
 * block stays one mapping after each hint (the first hint, on the whole
 * huge pages inside the block, split it in three: realloc then copied
 * the block at every growth). */
static void test_grow_keeps_and_one_mapping(void **state)
{
    (void)state;
    int32_t *v = NULL;
    size_t cap = 0, n = 0;
    for (int32_t i = 0; i < (6 << 20); i++) {
        assert_true(HTA_RESERVE(v, cap, n + 1));
        v[n++] = i * 7 + 1;
        if ((n & (n - 1)) == 0 && n * sizeof *v >= ((size_t)2 << 20)) {
            int one = one_mapping(v, cap * sizeof *v);
            if (one >= 0)
                assert_int_equal(one, 1);
        }
    }
    for (size_t i = 0; i < n; i++)
        assert_int_equal(v[i], (int32_t)i * 7 + 1);
    free(v);
}

static void test_malloc_calloc_huge(void **state)
{
    (void)state;
    for (int round = 0; round < 3; round++) {
        size_t bytes = ((size_t)3 << 20) + 12345 * (size_t)round;
        unsigned char *p = hta_malloc_huge(bytes);
        assert_non_null(p);
#if defined(__linux__) && defined(__GLIBC__)
        assert_int_equal((uintptr_t)p % ((uintptr_t)2 << 20), 0);
#endif
        memset(p, 0xab, bytes);
        assert_int_equal(p[bytes - 1], 0xab);
        free(p);
        /* zeroed, also where the memory just freed comes back */
        unsigned char *z = hta_calloc_huge(bytes / 4, 4);
        assert_non_null(z);
        for (size_t i = 0; i < bytes / 4 * 4; i++)
            if (z[i] != 0)
                fail_msg("hta_calloc_huge: byte %zu is %d", i, z[i]);
        memset(z, 0xcd, bytes / 4 * 4);
        free(z);
    }
    int32_t *small = hta_calloc_huge(10, sizeof *small);
    assert_non_null(small);
    for (int i = 0; i < 10; i++)
        assert_int_equal(small[i], 0);
    free(small);
    assert_null(hta_calloc_huge(SIZE_MAX / 2 + 1, 2));
    hta_huge_hint(NULL, (size_t)8 << 20); /* nothing */
}

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* Pages of [p, p + bytes) in memory (mincore), bytes page-aligned. */
static size_t resident_pages(const void *p, size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), n = bytes / page, in = 0;
    unsigned char *v = malloc(n + 1);
    assert_non_null(v);
    assert_int_equal(mincore((void *)(uintptr_t)p, bytes, v), 0);
    for (size_t i = 0; i < n; i++)
        in += v[i] & 1;
    free(v);
    return in;
}

/* Faulting in ahead (hta_prefault_start): the thread maps the areas'
 * pages and changes no byte, while the owner writes one area; a paced
 * area goes no further than its lead past the owner's mark; stopped at
 * once it returns; off, empty or too small (by default) it is not
 * started.  The areas are fresh anonymous mappings on a 2 MiB boundary
 * (zero, and defined for valgrind, where malloc's bytes are not), with
 * small pages unless the system gives huge ones to every mapping. */
typedef struct fresh {
    void *map;
    size_t len;
} fresh;

static unsigned char *fresh_area(fresh *f, size_t bytes)
{
    size_t huge = (size_t)2 << 20;
    f->len = bytes + huge;
    f->map = mmap(NULL, f->len, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(f->map != MAP_FAILED);
    return (unsigned char *)(((uintptr_t)f->map + huge - 1) &
                             ~(uintptr_t)(huge - 1));
}

static void test_prefault(void **state)
{
    (void)state;
    enum { MB = 1 << 20 };
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t bytes = 6 * (size_t)MB, part = 4 * (size_t)MB;
    fresh fa, fb, fp;
    unsigned char *a = fresh_area(&fa, bytes), *b = fresh_area(&fb, bytes);
    for (size_t i = 0; i < part; i++) /* b's first 4 MiB */
        b[i] = (unsigned char)(i * 13 + 5);
    size_t before = resident_pages(b, bytes);
    /* does this kernel have the advice (Linux 5.14)?  With it, every page
       ends up mapped; without, the thread fails at once and none is */
    unsigned char *probe = fresh_area(&fp, page);
    int advice = madvise(probe, page, MADV_POPULATE_WRITE) == 0;
    munmap(fp.map, fp.len);
    hta_prefault_set(2);
    void *area[2] = {a, b};
    size_t len[2] = {bytes, bytes};
    hta_prefault *pf = hta_prefault_start(area, len, NULL, 2);
    assert_non_null(pf);
    for (size_t i = 0; i < bytes; i++) /* the owner writes a meanwhile */
        a[i] = (unsigned char)(i * 7 + 1);
    if (advice) /* b's last 2 MiB: mapped by the thread alone */
        for (int tries = 0;
             resident_pages(b, bytes) < bytes / page && tries < 2000; tries++)
            usleep(5000);
    assert_int_equal(resident_pages(b, bytes), advice ? bytes / page : before);
    hta_prefault_stop(pf);
    for (size_t i = 0; i < bytes; i++) {
        if (a[i] != (unsigned char)(i * 7 + 1))
            fail_msg("prefault: a[%zu] changed", i);
        if (b[i] != (i < part ? (unsigned char)(i * 13 + 5) : 0))
            fail_msg("prefault: b[%zu] is %d", i, b[i]);
    }
    /* paced (the second area; the first is none): the thread keeps
       within the lead of the owner's mark, then follows it */
    size_t room = 16 * (size_t)MB, lead = 4 * (size_t)MB;
    fresh fe;
    unsigned char *e = fresh_area(&fe, room);
    void *two[2] = {NULL, e};
    size_t sz[2] = {0, room}, ahead[2] = {0, lead};
    pf = hta_prefault_start(two, sz, ahead, 2);
    assert_non_null(pf);
    size_t want[3] = {lead, 8 * (size_t)MB + lead, room};
    size_t mark[3] = {0, 8 * (size_t)MB, 12 * (size_t)MB};
    for (int k = 0; k < 3; k++) {
        hta_prefault_used(pf, 1, mark[k]);
        size_t expect = advice ? want[k] / page : 0;
        for (int tries = 0;
             resident_pages(e, room) < expect && tries < 2000; tries++)
            usleep(5000);
        usleep(50000); /* and no further (unpaced: 16 MiB in ms) */
        assert_int_equal(resident_pages(e, room), expect);
    }
    hta_prefault_stop(pf);
    for (size_t i = 0; i < room; i++)
        if (e[i] != 0)
            fail_msg("prefault: e[%zu] is %d", i, e[i]);
    munmap(fe.map, fe.len);
    /* stopped: the thread is gone when the stop returns (nothing mapped
       afterwards) and it had mapped whole chunks from the start, in order;
       and the stop does not wait for the area's end.  How many chunks the
       thread maps before the stop is the scheduler's to say (the owner may
       be off the processor right after the start), so that last one is
       asked of the best of five tries, each 1 GiB (512 chunks, ~70 ms of
       faults) */
    size_t big = (size_t)1 << 30, chunk = ((size_t)2 << 20) / page;
    size_t fewest = SIZE_MAX;
    for (int t = 0; t < 5 && fewest == SIZE_MAX; t++) {
        fresh fc;
        unsigned char *c = fresh_area(&fc, big);
        void *one[1] = {c};
        pf = hta_prefault_start(one, &big, NULL, 1);
        assert_non_null(pf);
        hta_prefault_stop(pf);
        size_t in = resident_pages(c, big);
        usleep(20000);
        assert_int_equal(resident_pages(c, big), in);
        assert_int_equal(in % chunk, 0);
        assert_int_equal(resident_pages(c, in * page), in); /* a prefix */
        if (in < big / page)
            fewest = in;
        munmap(fc.map, fc.len);
    }
    assert_true(fewest < big / page);
    /* not started: off; nothing; by default under 2 MiB in all */
    hta_prefault_set(0);
    assert_null(hta_prefault_start(area, len, NULL, 2));
    hta_prefault_set(2);
    assert_null(hta_prefault_start(area, len, NULL, 0));
    size_t small[2] = {4096, 4096};
    hta_prefault_set(1);
    assert_null(hta_prefault_start(area, small, NULL, 2));
    hta_prefault_stop(NULL);
    hta_prefault_used(NULL, 0, 0);
    munmap(fa.map, fa.len);
    munmap(fb.map, fb.len);
}
#else
static void test_prefault(void **state)
{
    (void)state;
    /* elsewhere than Linux: never started, and the calls do nothing */
    static unsigned char block[4 << 20];
    void *area[1] = {block};
    size_t len[1] = {sizeof block};
    hta_prefault_set(2);
    assert_null(hta_prefault_start(area, len, NULL, 1));
    hta_prefault_set(1);
    hta_prefault_used(NULL, 0, 0);
    hta_prefault_stop(NULL);
}
#endif

/* The reader reserves the task side after its first window at that
 * window's rate: here the first 1 MiB holds tasks of one replica and the
 * rest tasks of 40, so the replicas outgrow the reservation and grow
 * from it; the instance is read whole and right. */
static void test_reader_outgrows_reservation(void **state)
{
    (void)state;
    enum { SHORT = 150000, LONG = 20000, DEG = 40, N = 64 };
    size_t cap = 64 + (size_t)SHORT * 16 + (size_t)LONG * (16 + DEG * 3);
    char *text = malloc(cap), *w = text;
    assert_non_null(text);
    w += sprintf(w, "hta-instance 1\ntasks %d\nservers %d\nw_loc 1\n"
                    "w_rem 3\n", SHORT + LONG, N);
    for (int t = 0; t < SHORT; t++)
        w += sprintf(w, "task %d %d\n", t, t % N);
    for (int t = SHORT; t < SHORT + LONG; t++) {
        w += sprintf(w, "task %d", t);
        for (int k = 0; k < DEG; k++)
            w += sprintf(w, " %d", (t + k) % N);
        *w++ = '\n';
    }
    *w = '\0';
    assert_true((size_t)(w - text) < cap);
    hta_instance *inst = parse_text(text);
    free(text);
    assert_int_equal(inst->m, SHORT + LONG);
    assert_int_equal(inst->edges, (int64_t)SHORT + (int64_t)LONG * DEG);
    for (int t = 0; t < SHORT + LONG; t += 997) {
        int64_t deg = inst->task_off[t + 1] - inst->task_off[t];
        assert_int_equal(deg, t < SHORT ? 1 : DEG);
        for (int64_t k = 0; k < deg; k++)
            assert_int_equal(inst->task_srv[inst->task_off[t] + k],
                             (t + (t < SHORT ? 0 : k)) % N);
    }
    /* the server side agrees: every server's list in task order and the
       counts add up */
    int64_t total = 0;
    for (int32_t s = 0; s < inst->n; s++) {
        for (int64_t i = inst->srv_off[s] + 1; i < inst->srv_off[s + 1]; i++)
            assert_true(inst->srv_task[i - 1] < inst->srv_task[i]);
        total += inst->srv_off[s + 1] - inst->srv_off[s];
    }
    assert_int_equal(total, inst->edges);
    hta_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grow_keeps_and_one_mapping),
        cmocka_unit_test(test_malloc_calloc_huge),
        cmocka_unit_test(test_prefault),
        cmocka_unit_test(test_reader_outgrows_reservation),
    };
    return cmocka_run_group_tests_name("mem", tests, NULL, NULL);
}
