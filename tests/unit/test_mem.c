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
        cmocka_unit_test(test_reader_outgrows_reservation),
    };
    return cmocka_run_group_tests_name("mem", tests, NULL, NULL);
}
