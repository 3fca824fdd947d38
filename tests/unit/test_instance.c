/* Instance model: parsing, validation, writing, parse(write(x)) == x. */
#include "helpers.h"
#include <dirent.h>
#include <errno.h>
#include <unistd.h>

#include <stdio.h>

#include "hta/num.h"
#include "core/buf.h"
#include "core/lex.h"

static void test_parse_valid(void **state)
{
    (void)state;
    hta_instance *inst = parse_text(
        "# comment\n\nhta-instance 1   # trailing comment\r\n"
        "tasks 3\nservers 2\nw_loc 1.5\nw_rem 2 2.5 4\n"
        "task 2 1\ntask 0 0 1\n\ttask 1 1   \n");
    assert_int_equal(inst->m, 3);
    assert_int_equal(inst->n, 2);
    assert_int_equal(inst->edges, 4);
    assert_true(inst->w_loc == 1.5);
    assert_int_equal(inst->wrem.kind, HTA_WREM_TABLE);
    assert_true(hta_wrem_at(&inst->wrem, 0) == 2.0);
    assert_true(hta_wrem_at(&inst->wrem, 1) == 2.5);
    assert_true(hta_wrem_at(&inst->wrem, 2) == 4.0);
    assert_true(hta_wrem_at(&inst->wrem, 1000) == 4.0);
    /* task side in task order, server side sorted by task id */
    assert_int_equal(inst->task_off[1], 2);
    assert_int_equal(inst->task_srv[0], 0);
    assert_int_equal(inst->task_srv[1], 1);
    assert_int_equal(inst->task_srv[3], 1);
    assert_int_equal(inst->srv_off[1], 1);
    assert_int_equal(inst->srv_task[0], 0);
    assert_int_equal(inst->srv_task[1], 0);
    assert_int_equal(inst->srv_task[2], 1);
    assert_int_equal(inst->srv_task[3], 2);
    assert_true(hta_instance_is_local(inst, 2, 1));
    assert_false(hta_instance_is_local(inst, 2, 0));
    hta_instance_free(inst);
}

static void test_affine(void **state)
{
    (void)state;
    hta_instance *inst = parse_text("hta-instance 1\ntasks 1\nservers 1\n"
                                    "w_loc 1\nw_rem affine 2 0.5\ntask 0 0\n");
    assert_int_equal(inst->wrem.kind, HTA_WREM_AFFINE);
    assert_true(hta_wrem_at(&inst->wrem, 0) == 2.0);
    assert_true(hta_wrem_at(&inst->wrem, 4) == 4.0);
    assert_false(hta_wrem_is_constant(&inst->wrem));
    hta_instance_free(inst);
}

static void test_roundtrip_random(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 11);
    for (int i = 0; i < 300; i++) {
        hta_instance *a = random_instance(&r, 30, 12, 5, i % COST_MODELS);
        if (i % 3 == 0) { /* some names, racks */
            char name[32];
            for (int32_t t = 0; t < a->m; t += 2) {
                snprintf(name, sizeof name, "blk_%d", 1000 + t);
                assert_int_equal(hta_instance_set_name(a, 't', t, name, NULL),
                                 HTA_OK);
            }
            for (int32_t s = 0; s < a->n; s++) {
                snprintf(name, sizeof name, "10.0.0.%d:9866", s);
                assert_int_equal(hta_instance_set_name(a, 's', s, name, NULL),
                                 HTA_OK);
                assert_int_equal(
                    hta_instance_set_name(a, 'r', s, s % 2 ? "/r1" : "/r2", NULL),
                    HTA_OK);
            }
        }
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        assert_non_null(f);
        assert_int_equal(hta_instance_write(a, f, "round trip\ntwo lines"),
                         HTA_OK);
        fclose(f);
        hta_instance *b = parse_text(buf);
        assert_true(hta_instance_equal(a, b));
        /* write(parse(write(x))) == write(x), byte for byte */
        char *buf2 = NULL;
        size_t len2 = 0;
        f = open_memstream(&buf2, &len2);
        hta_instance_write(b, f, "round trip\ntwo lines");
        fclose(f);
        assert_int_equal(len, len2);
        assert_memory_equal(buf, buf2, len);
        free(buf);
        free(buf2);
        hta_instance_free(a);
        hta_instance_free(b);
    }
}

static void test_real_roundtrip(void **state)
{
    (void)state;
    static const double xs[] = {0.1, 1.0 / 3.0, 1e-300, 123456789.125,
                                2.5e17, 0.30000000000000004};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        char buf[32];
        hta_format_real(buf, xs[i]);
        assert_true(strtod(buf, NULL) == xs[i]);
    }
}

/* Each defect with the line and the message it must produce. */
/* Task lines in task order go straight into the instance, others through
 * records: the same instance either way, whatever the order (in order, a
 * prefix in order then the rest reversed, all reversed). */
static void test_line_orders(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 12);
    for (int i = 0; i < 200; i++) {
        hta_instance *a = random_instance(&r, 30, 12, 5, i % COST_MODELS);
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        assert_non_null(f);
        assert_int_equal(hta_instance_write(a, f, NULL), HTA_OK);
        assert_int_equal(fclose(f), 0);
        /* the task lines, in the order written */
        char *lines[32];
        int nl = 0;
        size_t head = 0;
        for (char *p = buf; *p; p = strchr(p, '\n') + 1) {
            if (strncmp(p, "task ", 5) == 0) {
                if (nl == 0)
                    head = (size_t)(p - buf);
                lines[nl++] = p;
            }
        }
        assert_int_equal(nl, a->m);
        int prefix = (int)hta_rng_below(&r, (uint64_t)nl + 1);
        for (int variant = 0; variant < 2; variant++) {
            char *text = malloc(len + 1);
            assert_non_null(text);
            memcpy(text, buf, head);
            size_t at = head;
            for (int k = 0; k < nl; k++) {
                int j = variant == 0 ? (k < prefix ? k : nl - 1 - (k - prefix))
                                     : nl - 1 - k;
                size_t l = (size_t)(strchr(lines[j], '\n') + 1 - lines[j]);
                memcpy(text + at, lines[j], l);
                at += l;
            }
            /* what follows the task lines (names, racks), unchanged */
            const char *rest = strchr(lines[nl - 1], '\n') + 1;
            memcpy(text + at, rest, strlen(rest));
            at += strlen(rest);
            text[at] = '\0';
            hta_instance *b = parse_text(text);
            assert_true(hta_instance_equal(a, b));
            hta_instance_free(b);
            free(text);
        }
        free(buf);
        hta_instance_free(a);
    }
}

static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        long line;
        const char *msg;
    } cases[] = {
        {"", 1, "expected a 'hta-instance' line, found end of file"},
        {"hta-instance 2\n", 1, "expected format version in [1, 1], found '2'"},
        {"hta-instanse 1\n", 1, "expected the magic 'hta-instance', found 'hta-instanse'"},
        {"hta-instance 1\ntasks 0\n", 2, "expected a task count in [1, 2147483646], found '0'"},
        {"hta-instance 1\ntasks 99999999999\n", 2, "expected a task count in [1, 2147483646], found '99999999999'"},
        {"hta-instance 1\ntasks 5000\n", 2, "expected a task count this file can hold"},
        {"hta-instance 1\ntasks 1x\n", 2, "expected a task count, found '1x'"},
        {"hta-instance 1\ntasks 1 2\n", 2, "expected end of line after the task count, found '2'"},
        {"hta-instance 1\ntasks 1\nservers 1\nw_loc nan\n", 4, "expected a local cost w_loc, found 'nan'"},
        {"hta-instance 1\ntasks 1\nservers 1\nw_loc inf\n", 4, "expected a local cost w_loc, found 'inf'"},
        {"hta-instance 1\ntasks 1\nservers 1\nw_loc -1\n", 4, "expected a local cost w_loc (> 0), found '-1'"},
        {"hta-instance 1\ntasks 1\nservers 1\nw_loc 1e999\n", 4, "expected a local cost w_loc, found out-of-range '1e999'"},
        {"hta-instance 1\ntasks 1\nservers 1\nw_loc 2\nw_rem 1\n", 5, "expected w_rem(0) >= w_loc = 2, found '1'"},
        {"hta-instance 1\ntasks 1\nservers 1\nw_loc 1\nw_rem 3 2\n", 5, "expected a non-decreasing w_rem value >= 3, found '2'"},
        {"hta-instance 1\ntasks 1\nservers 1\nw_loc 1\nw_rem affine 2 -1\n", 5, "expected a slope b >= 0, found '-1'"},
        {"hta-instance 1\ntasks 1\nservers 1\nw_loc 1\nw_rem affine 2\n", 5, "expected w_rem affine <a> <b>, found end of line"},
        {"hta-instance 1\ntasks 2\nservers 2\nw_loc 1\nw_rem 3\ntask 0 0\n", 7, "expected a 'task' line for task 1, found end of file"},
        {"hta-instance 1\ntasks 2\nservers 2\nw_loc 1\nw_rem 3\ntask 0 0\ntask 0 1\n", 7, "expected one 'task' line per task, found a second for task '0'"},
        /* repeats after lines in task order, both ways of checking */
        {"hta-instance 1\ntasks 3\nservers 2\nw_loc 1\nw_rem 3\ntask 0 0\ntask 1 1\ntask 0 1\n", 8, "expected one 'task' line per task, found a second for task '0'"},
        {"hta-instance 1\ntasks 4\nservers 2\nw_loc 1\nw_rem 3\ntask 0 0\ntask 1 0\ntask 1 1\n", 8, "expected one 'task' line per task, found a second for task '1'"},
        {"hta-instance 1\ntasks 4\nservers 2\nw_loc 1\nw_rem 3\ntask 0 0\ntask 2 0\ntask 1 1\n", 9, "expected a 'task' line for task 3, found end of file"},
        {"hta-instance 1\ntasks 2\nservers 2\nw_loc 1\nw_rem 3\ntask 0 0 0\n", 6, "expected distinct servers on a task line, server id, found '0'"},
        {"hta-instance 1\ntasks 2\nservers 2\nw_loc 1\nw_rem 3\ntask 0 2\n", 6, "expected a server id in [0, 1], found '2'"},
        {"hta-instance 1\ntasks 2\nservers 2\nw_loc 1\nw_rem 3\ntask 0\n", 6, "expected at least one server id, found end of line"},
        {"hta-instance 1\ntasks 2\nservers 2\nw_loc 1\nw_rem 3\ntask -1 0\n", 6, "expected a task id in [0, 1], found '-1'"},
        {"hta-instance 1\ntasks 2\nservers 2\nw_loc 1\nw_rem 3\nfrob 0 0\n", 6, "expected a 'task', 'name', 'rack' or 'w_level' line, found unknown keyword 'frob'"},
        {"hta-instance 1\ntasks 1\nservers 1\nw_loc 1\nw_rem 3\ntask 0 0\ntasks 1\n", 7, "found unknown keyword 'tasks'"},
        {"hta-instance 1\ntasks 1\nservers 1\nw_rem 3\n", 4, "expected a 'w_loc' line, found 'w_rem'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hta_diag d;
        hta_diag_clear(&d);
        hta_instance *inst = NULL;
        hta_status st = hta_instance_parse_memory(
            "<t>", cases[i].text, strlen(cases[i].text), &inst, &d);
        hta_instance_free(inst);
        if (st != HTA_ERR_INPUT || d.line != cases[i].line ||
            strstr(d.msg, cases[i].msg) == NULL)
            fail_msg("case %zu: status %d line %ld msg '%s', expected line "
                     "%ld msg '%s'",
                     i, st, d.line, d.msg, cases[i].line, cases[i].msg);
    }
}

static void test_binary(void **state)
{
    (void)state;
    static const char bin[] = "hta-instance 1\ntasks 1\nservers 1\n"
                              "w_loc 1\nw_rem 3\ntask 0 0\n\0x\n";
    hta_instance *inst = NULL;
    hta_diag d;
    assert_int_equal(hta_instance_parse_memory("<t>", bin, sizeof bin - 1,
                                               &inst, &d),
                     HTA_ERR_INPUT);
    assert_int_equal(d.line, 7);
    assert_non_null(strstr(d.msg, "expected text, found a NUL byte"));
}

static void test_build_errors(void **state)
{
    (void)state;
    double v = 3;
    hta_wrem w = {HTA_WREM_TABLE, 0, &v, 0, 0};
    int64_t off[] = {0, 1, 1};
    int32_t srv[] = {0};
    hta_instance *inst = NULL;
    hta_diag d;
    assert_int_equal(hta_instance_build(2, 2, 1.0, &w, off, srv, &inst, &d),
                     HTA_ERR_INPUT);
    assert_null(inst);
    assert_non_null(strstr(d.msg, "at least one server for task 1"));
    int64_t off2[] = {0, 2};
    int32_t srv2[] = {1, 1};
    assert_int_equal(hta_instance_build(1, 2, 1.0, &w, off2, srv2, &inst, &d),
                     HTA_ERR_INPUT);
    assert_non_null(strstr(d.msg, "found server 1 twice"));
    v = 0.5;
    int64_t off3[] = {0, 1};
    assert_int_equal(hta_instance_build(1, 2, 1.0, &w, off3, srv2, &inst, &d),
                     HTA_ERR_INPUT);
    assert_non_null(strstr(d.msg, "w_rem(0) >= w_loc"));
}

static void test_lex_numbers(void **state)
{
    (void)state;
    hta_lex lx;
    hta_diag d;
    assert_int_equal(hta_lex_from_memory(&lx, "<n>", "x", 1, &d), HTA_OK);
    int64_t v;
    double x;
    assert_int_equal(hta_lex_int(&lx, "9223372036854775807", 0, INT64_MAX,
                                 "n", &v, &d),
                     HTA_OK);
    assert_true(v == INT64_MAX);
    assert_int_equal(hta_lex_int(&lx, "9223372036854775808", 0, INT64_MAX,
                                 "n", &v, &d),
                     HTA_ERR_INPUT);
    assert_int_equal(hta_lex_int(&lx, "+5", 0, 9, "n", &v, &d), HTA_ERR_INPUT);
    assert_int_equal(hta_lex_int(&lx, "0x5", 0, 9, "n", &v, &d),
                     HTA_ERR_INPUT);
    assert_int_equal(hta_lex_int(&lx, " 5", 0, 9, "n", &v, &d), HTA_ERR_INPUT);
    assert_int_equal(hta_lex_real(&lx, "0x1p3", 1, "x", &x, &d),
                     HTA_ERR_INPUT);
    assert_int_equal(hta_lex_real(&lx, "1e-400", 0, "x", &x, &d),
                     HTA_ERR_INPUT);
    assert_int_equal(hta_lex_real(&lx, "2.5e1", 1, "x", &x, &d), HTA_OK);
    assert_true(x == 25.0);
    assert_int_equal(hta_lex_real(&lx, "0", 1, "x", &x, &d), HTA_ERR_INPUT);
    assert_int_equal(hta_lex_real(&lx, "-0", 0, "x", &x, &d), HTA_OK);
    hta_lex_free(&lx);
}

static void test_quote_long(void **state)
{
    (void)state;
    char q[64];
    hta_lex_quote("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", q);
    assert_string_equal(q, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...");
    hta_lex_quote("a\x01" "b", q);
    assert_string_equal(q, "a?b");
}

static void test_gen_deterministic(void **state)
{
    (void)state;
    for (int z = 0; z < 2; z++) {
        hta_instance *a = hdfs_instance(500, 40, 3, z ? 1.2 : 0.0, 3.0, 7);
        hta_instance *b = hdfs_instance(500, 40, 3, z ? 1.2 : 0.0, 3.0, 7);
        hta_instance *c = hdfs_instance(500, 40, 3, z ? 1.2 : 0.0, 3.0, 8);
        assert_true(hta_instance_equal(a, b));
        assert_false(hta_instance_equal(a, c));
        assert_int_equal(a->edges, 1500);
        hta_instance_free(a);
        hta_instance_free(b);
        hta_instance_free(c);
    }
}


/* The hand-written integer reader against strtoll (the reference it
 * replaced): every edge of int64, signs, leading zeros, syntax, and
 * random strings of digits and a few other characters. */
static hta_num_result ref_int(const char *s, int64_t lo, int64_t hi,
                              int64_t *out)
{
    const char *p = s + (s[0] == '-');
    if (*p < '0' || *p > '9')
        return HTA_NUM_SYNTAX;
    for (const char *q = p; *q; q++)
        if (*q < '0' || *q > '9')
            return HTA_NUM_SYNTAX;
    errno = 0;
    char *end = NULL;
    long long v = strtoll(s, &end, 10);
    if (*end != '\0')
        return HTA_NUM_SYNTAX;
    if (errno == ERANGE || v < lo || v > hi)
        return HTA_NUM_RANGE;
    *out = (int64_t)v;
    return HTA_NUM_OK;
}

static void same_int(const char *s, int64_t lo, int64_t hi)
{
    int64_t a = 12345, b = 12345;
    hta_num_result ra = hta_num_int(s, lo, hi, &a);
    hta_num_result rb = ref_int(s, lo, hi, &b);
    if (ra != rb || (ra == HTA_NUM_OK && a != b))
        fail_msg("'%s' in [%lld, %lld]: %d %lld, strtoll %d %lld", s,
                 (long long)lo, (long long)hi, ra, (long long)a, rb,
                 (long long)b);
}

static void test_num_int(void **state)
{
    (void)state;
    static const char *const edge[] = {
        "0", "-0", "00", "-00", "7", "007", "-", "", "+1", " 1", "1 ", "1x",
        "x1", "--1", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616",
        "99999999999999999999999", "-99999999999999999999999",
        "2147483647", "2147483648", "-2147483648", "0x10", "1e3", "1.0",
        "99999999999999999999999x"};
    static const int64_t lims[][2] = {{INT64_MIN, INT64_MAX},
                                      {0, 2147483646},
                                      {-5, 5},
                                      {1, 1}};
    for (size_t i = 0; i < sizeof edge / sizeof *edge; i++)
        for (size_t j = 0; j < 4; j++)
            same_int(edge[i], lims[j][0], lims[j][1]);
    hta_rng r;
    hta_rng_seed(&r, 5);
    static const char alphabet[] = "0123456789-x";
    char buf[32];
    for (int rep = 0; rep < 200000; rep++) {
        int len = (int)hta_rng_below(&r, 24);
        for (int i = 0; i < len; i++) /* mostly digits */
            buf[i] = hta_rng_below(&r, 20) ? alphabet[hta_rng_below(&r, 10)]
                                           : alphabet[10 + hta_rng_below(&r, 2)];
        buf[len] = 0;
        same_int(buf, INT64_MIN, INT64_MAX);
        same_int(buf, 0, 1000000);
    }
}

/* hta_first_repeat: the second occurrence of the smallest repeated value,
 * on short lines (pairwise) and long ones (sorted), against a quadratic
 * reference. */
static void test_first_repeat(void **state)
{
    (void)state;
    hta_rng r;
    hta_rng_seed(&r, 6);
    int32_t ids[40], scratch[40];
    for (int rep = 0; rep < 100000; rep++) {
        int64_t k = (int64_t)hta_rng_below(&r, 20);
        for (int64_t i = 0; i < k; i++)
            ids[i] = (int32_t)hta_rng_below(&r, 30);
        int64_t want = -1;
        for (int64_t j = 1; j < k; j++)
            for (int64_t i = 0; i < j; i++)
                if (ids[i] == ids[j]) {
                    if (want < 0 || ids[j] < ids[want])
                        want = j;
                    break;
                }
        assert_int_equal(hta_first_repeat(ids, scratch, k), want);
    }
}

/* The server side of the placement graph with many servers (built in two
 * passes by blocks of servers from 32768 on, instance.c): each server's
 * list is strictly increasing and holds exactly the tasks with a replica
 * on it, checked from the task side; Zipf and uniform, 5e4 and 1e5
 * servers, and the one-pass build below the threshold; each with one
 * thread and with two (hta_instance_read_tuning). */
static void test_server_side_many(void **state)
{
    (void)state;
    static const struct {
        int32_t m, n;
        double zipf;
    } cases[] = {{60000, 50000, 1.0}, {30000, 100000, 0.0},
                 {20000, 32767, 0.5}, {20000, 32768, 1.5}};
    for (size_t c = 0; c < 2 * sizeof cases / sizeof *cases; c++) {
        /* each case with one thread, then two from the least work on */
        size_t k = c / 2;
        hta_instance_read_tuning(c % 2 ? 2 : 1, 0, c % 2 ? 1 : 0);
        hta_instance *inst = hdfs_instance(cases[k].m, cases[k].n, 3,
                                           cases[k].zipf, 3.0, 7 + k);
        hta_instance_read_tuning(0, 0, 0);
        assert_int_equal(inst->srv_off[0], 0);
        assert_int_equal(inst->srv_off[inst->n], inst->edges);
        for (int32_t s = 0; s < inst->n; s++)
            for (int64_t i = inst->srv_off[s] + 1; i < inst->srv_off[s + 1];
                 i++)
                assert_true(inst->srv_task[i - 1] < inst->srv_task[i]);
        for (int32_t t = 0; t < inst->m; t++)
            for (int64_t i = inst->task_off[t]; i < inst->task_off[t + 1];
                 i++) {
                int32_t s = inst->task_srv[i];
                int64_t lo = inst->srv_off[s], hi = inst->srv_off[s + 1];
                while (lo < hi) {
                    int64_t mid = lo + (hi - lo) / 2;
                    if (inst->srv_task[mid] < t)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                assert_true(lo < inst->srv_off[s + 1] &&
                            inst->srv_task[lo] == t);
            }
        hta_instance_free(inst);
    }
}

/* One reading of text (a file at path when path is not NULL, else
 * memory): mode 0 by the general path alone, 1 with the fast path of
 * task lines, 2 with it in two threads over windows of window bytes
 * split from the least work on (hta_instance_read_tuning). */
typedef struct reading {
    hta_status st;
    hta_diag d;
    hta_instance *inst;
} reading;

static reading read_one(const char *path, const char *text, size_t len,
                        int mode, size_t window)
{
    reading r;
    memset(&r, 0, sizeof r);
    hta_instance_fast_lines(mode > 0);
    hta_instance_read_tuning(mode == 2 ? 2 : 1, mode == 2 ? window : 0,
                             mode == 2 ? 1 : 0);
    r.st = path ? hta_instance_parse(path, &r.inst, &r.d) :
                  hta_instance_parse_memory("<mem>", text, len, &r.inst,
                                            &r.d);
    hta_instance_fast_lines(1);
    hta_instance_read_tuning(0, 0, 0);
    return r;
}

/* The same status, diagnostic and instance every way; 1 when it
 * parsed.  The two threads' windows vary from call to call (60 to 459
 * bytes, and the read buffer's 1 MiB every seventh call), so their
 * halves start at every kind of line. */
static int same_both_ways(const char *path, const char *text, size_t len)
{
    static unsigned calls;
    calls++;
    size_t window = calls % 7 ? 60 + (calls * 37) % 400 : 0;
    reading b = read_one(path, text, len, 0, 0);
    for (int mode = 1; mode <= 2; mode++) {
        reading a = read_one(path, text, len, mode, window);
        if (a.st != b.st || a.d.line != b.d.line ||
            (a.st != HTA_OK && strcmp(a.d.msg, b.d.msg) != 0))
            fail_msg("%s: fast path (%s): %d line %ld '%s'; general: %d "
                     "line %ld '%s'",
                     path ? path : "<mem>", mode == 2 ? "two threads" : "one",
                     a.st, a.d.line, a.d.msg, b.st, b.d.line, b.d.msg);
        if (a.st == HTA_OK) {
            const hta_instance *x = a.inst, *y = b.inst;
            assert_int_equal(x->m, y->m);
            assert_int_equal(x->n, y->n);
            assert_int_equal(x->n_declared, y->n_declared);
            assert_int_equal(x->edges, y->edges);
            assert_true(x->w_loc == y->w_loc);
            assert_true(hta_instance_equal(x, y));
            assert_memory_equal(x->task_off, y->task_off,
                                ((size_t)x->m + 1) * sizeof *x->task_off);
            assert_memory_equal(x->task_srv, y->task_srv,
                                (size_t)x->edges * sizeof *x->task_srv);
            assert_memory_equal(x->srv_off, y->srv_off,
                                ((size_t)x->n + 1) * sizeof *x->srv_off);
            assert_memory_equal(x->srv_task, y->srv_task,
                                (size_t)x->edges * sizeof *x->srv_task);
        }
        hta_instance_free(a.inst);
    }
    int ok = b.st == HTA_OK;
    hta_instance_free(b.inst);
    return ok;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = NULL;
    size_t cap = 0, n = 0, got;
    do {
        assert_true(HTA_RESERVE(buf, cap, n + 65536));
        got = fread(buf + n, 1, 65536, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return buf;
}

/* The fast path of task lines (hta_instance_fast_lines), in one thread
 * and in two, against the general path: every file of the bad-input
 * corpus and every bundled instance, as a file and from memory, and 4000
 * mutations of generated instances (a character changed, inserted,
 * removed or a line swapped: ids out of order, repeated, out of range,
 * signs, leading zeros, blanks, comments, CR), as files (one in ten over
 * 64 KiB, one in 200 over the read buffer's 1 MiB: lines across its
 * end) and from memory, and 80 of them with every line ending in CRLF
 * (the fast path gives up after 64 task lines it left): the same status,
 * diagnostic and instance. */
static void test_fast_lines(void **state)
{
    (void)state;
    const char *dirs[] = {"tests/bad", "instances"};
    int files = 0, parsed = 0;
    for (size_t k = 0; k < 2; k++) {
        DIR *dir = opendir(dirs[k]);
        assert_non_null(dir);
        struct dirent *e;
        while ((e = readdir(dir))) {
            size_t nl = strlen(e->d_name);
            if (nl < 5 || strcmp(e->d_name + nl - 4, ".txt") != 0)
                continue;
            char path[512], *text;
            size_t len;
            snprintf(path, sizeof path, "%s/%s", dirs[k], e->d_name);
            text = slurp(path, &len);
            parsed += same_both_ways(path, NULL, 0);
            same_both_ways(NULL, text, len);
            free(text);
            files++;
        }
        closedir(dir);
    }
    assert_true(files >= 40 && parsed >= 10);
    hta_rng r;
    hta_rng_seed(&r, 91);
    static const char pool[] = "0123456789  -+\t\r#x\n0";
    int mutated_ok = 0, crlf_ok = 0;
    for (int i = 0; i < 4000; i++) {
        int32_t m = 1 + (int32_t)hta_rng_below(&r, i % 200 == 1 ? 80000 :
                                                   i % 10 == 0  ? 9000 :
                                                                  40);
        int32_t n = 1 + (int32_t)hta_rng_below(&r, 30);
        size_t cap = (size_t)m * 64 + 256, len = 0;
        char *text = malloc(cap + 8);
        assert_non_null(text);
        len += (size_t)snprintf(text + len, cap - len,
                                "hta-instance 1\ntasks %d\nservers %d\n"
                                "w_loc 1\nw_rem 3\n",
                                (int)m, (int)n);
        for (int32_t t = 0; t < m; t++) {
            int k = 1 + (int)hta_rng_below(&r, 3);
            len += (size_t)snprintf(text + len, cap - len, "task %d", (int)t);
            int32_t first = (int32_t)hta_rng_below(&r, (uint64_t)n);
            for (int j = 0; j < k && j < n; j++)
                len += (size_t)snprintf(text + len, cap - len, " %d",
                                        (int)((first + j) % n));
            text[len++] = '\n';
        }
        int edits = (int)hta_rng_below(&r, 4);
        for (int e = 0; e < edits; e++) {
            size_t at = (size_t)hta_rng_below(&r, len);
            char c = pool[hta_rng_below(&r, sizeof pool - 1)];
            switch (hta_rng_below(&r, 3)) {
            case 0:
                text[at] = c;
                break;
            case 1:
                if (len < cap) {
                    memmove(text + at + 1, text + at, len - at);
                    text[at] = c;
                    len++;
                }
                break;
            default:
                memmove(text + at, text + at + 1, len - at - 1);
                len--;
            }
        }
        text[len] = '\0';
        if (i % 50 == 0) { /* every line CRLF: the fast path gives up */
            char *crlf = malloc(2 * len + 1);
            assert_non_null(crlf);
            size_t n2 = 0;
            for (size_t j = 0; j < len; j++) {
                if (text[j] == '\n')
                    crlf[n2++] = '\r';
                crlf[n2++] = text[j];
            }
            crlf_ok += same_both_ways(NULL, crlf, n2);
            free(crlf);
        }
        if (i % 2 == 0) {
            mutated_ok += same_both_ways(NULL, text, len);
        } else {
            char path[] = "/tmp/hta-fast-XXXXXX";
            temp_text(path, text);
            mutated_ok += same_both_ways(path, NULL, 0);
            unlink(path);
        }
        free(text);
    }
    print_message("%d corpus files, %d valid; %d of 4000 mutations "
                  "valid, %d of 80 as CRLF\n",
                  files, parsed, mutated_ok, crlf_ok);
    assert_true(mutated_ok >= 500 && mutated_ok <= 3900);
    assert_true(crlf_ok >= 5); /* valid CRLF files, over 64 task lines among them */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_num_int),
        cmocka_unit_test(test_first_repeat),
        cmocka_unit_test(test_parse_valid),
        cmocka_unit_test(test_affine),
        cmocka_unit_test(test_roundtrip_random),
        cmocka_unit_test(test_line_orders),
        cmocka_unit_test(test_real_roundtrip),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_binary),
        cmocka_unit_test(test_build_errors),
        cmocka_unit_test(test_lex_numbers),
        cmocka_unit_test(test_quote_long),
        cmocka_unit_test(test_gen_deterministic),
        cmocka_unit_test(test_server_side_many),
        cmocka_unit_test(test_fast_lines),
    };
    return cmocka_run_group_tests_name("instance", tests, NULL, NULL);
}
