/* hdfs fsck importer (Hadoop 2 and 3 formats). */
#include "hta/fsck.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "hta/lex.h"

/* Datanode names to server ids: open addressing over owned strings. */
typedef struct names {
    char **key;
    int32_t *id;
    char **rack; /* per id, owned, may be NULL */
    int64_t cap, count;
} names;

static uint64_t hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

static void names_free(names *nm)
{
    for (int64_t i = 0; i < nm->cap; i++)
        free(nm->key[i]);
    for (int64_t i = 0; i < nm->count; i++)
        free(nm->rack[i]);
    free(nm->key);
    free(nm->id);
    free(nm->rack);
}

/* Id of node s[0..n), added if new; -1 on out of memory. */
static int32_t names_get(names *nm, const char *s, size_t n)
{
    if (2 * (nm->count + 1) > nm->cap) {
        names bigger = {0};
        bigger.cap = nm->cap ? nm->cap * 2 : 64;
        bigger.key = calloc((size_t)bigger.cap, sizeof *bigger.key);
        bigger.id = calloc((size_t)bigger.cap, sizeof *bigger.id);
        bigger.rack = calloc((size_t)bigger.cap, sizeof *bigger.rack);
        if (!bigger.key || !bigger.id || !bigger.rack) {
            free(bigger.key);
            free(bigger.id);
            free(bigger.rack);
            return -1;
        }
        for (int64_t i = 0; i < nm->cap; i++) {
            if (!nm->key[i])
                continue;
            uint64_t h = hash(nm->key[i], strlen(nm->key[i]));
            int64_t j = (int64_t)(h % (uint64_t)bigger.cap);
            while (bigger.key[j])
                j = (j + 1) % bigger.cap;
            bigger.key[j] = nm->key[i];
            bigger.id[j] = nm->id[i];
        }
        if (nm->count)
            memcpy(bigger.rack, nm->rack,
                   (size_t)nm->count * sizeof *nm->rack);
        bigger.count = nm->count;
        free(nm->key);
        free(nm->id);
        free(nm->rack);
        *nm = bigger;
    }
    int64_t j = (int64_t)(hash(s, n) % (uint64_t)nm->cap);
    while (nm->key[j]) {
        if (strlen(nm->key[j]) == n && memcmp(nm->key[j], s, n) == 0)
            return nm->id[j];
        j = (j + 1) % nm->cap;
    }
    char *k = malloc(n + 1);
    if (!k)
        return -1;
    memcpy(k, s, n);
    k[n] = '\0';
    nm->key[j] = k;
    nm->id[j] = (int32_t)nm->count;
    return (int32_t)nm->count++;
}

static char *dup_n(const char *s, size_t n)
{
    char *c = malloc(n + 1);
    if (c) {
        memcpy(c, s, n);
        c[n] = '\0';
    }
    return c;
}

/* A block line starts with "<digits>. " followed by a token with ":blk_". */
static int is_block_line(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    const char *q = p;
    while (q < end && isdigit((unsigned char)*q))
        q++;
    if (q == p || q + 1 >= end || q[0] != '.' || q[1] != ' ')
        return 0;
    const char *tok = q + 2;
    const char *sp = memchr(tok, ' ', (size_t)(end - tok));
    const char *tend = sp ? sp : end;
    for (const char *x = tok; x + 5 <= tend; x++)
        if (memcmp(x, ":blk_", 5) == 0)
            return 1;
    return 0;
}

hta_status hta_fsck_import(const char *path, double w_loc,
                           const hta_wrem *wrem, int strict,
                           hta_instance **out, hta_fsck_result *res,
                           hta_diag *d)
{
    *out = NULL;
    memset(res, 0, sizeof *res);
    hta_lex lx;
    hta_status st = hta_lex_open(&lx, path, d);
    if (st != HTA_OK)
        return st;
    names nm = {0};
    int64_t *off = NULL, ntasks = 0, capt = 0, nsrv = 0, caps = 0;
    int32_t *srv = NULL;
    char **blk = NULL;
    int64_t capm = 0;
    long line = 0;
    const char *p = lx.buf, *buf_end = lx.buf + lx.len;
    if (memchr(lx.buf, '\0', lx.len)) {
        st = hta_diag_set(d, HTA_ERR_INPUT, path, 0,
                          "expected text, found a NUL byte (binary file?)");
        goto cleanup;
    }
    while (p < buf_end) {
        line++;
        const char *eol = memchr(p, '\n', (size_t)(buf_end - p));
        const char *end = eol ? eol : buf_end;
        const char *next = eol ? eol + 1 : buf_end;
        if (end > p && end[-1] == '\r')
            end--;
        if (!is_block_line(p, end)) {
            p = next;
            continue;
        }
        res->blocks++;
        /* the block name: after the ':' of "<pool>:blk_..." */
        const char *tok = (const char *)memchr(p, '.', (size_t)(end - p)) + 2;
        const char *tend = memchr(tok, ' ', (size_t)(end - tok));
        if (!tend)
            tend = end;
        const char *colon = tok;
        while (colon < tend && memcmp(colon, ":blk_", 5) != 0)
            colon++;
        const char *name = colon + 1;
        size_t name_len = (size_t)(tend - name);
        const char *open = memchr(tend, '[', (size_t)(end - tend));
        int missing = 0;
        for (const char *x = tend; x + 7 <= end; x++)
            if (memcmp(x, "MISSING", 7) == 0)
                missing = 1;
        if (missing) {
            if (strict) {
                st = hta_diag_set(d, HTA_ERR_INPUT, path, line,
                                  "expected a block with replicas, found "
                                  "MISSING block %.*s",
                                  (int)name_len, name);
                goto cleanup;
            }
            if (res->missing == capm) {
                capm = capm ? capm * 2 : 16;
                long *nl = realloc(res->missing_line,
                                   (size_t)capm * sizeof *nl);
                if (!nl) {
                    st = hta_diag_set(d, HTA_ERR_INTERNAL, path, 0,
                                      "out of memory");
                    goto cleanup;
                }
                res->missing_line = nl;
            }
            res->missing_line[res->missing++] = line;
            p = next;
            continue;
        }
        const char *close = end;
        while (open && close > open && close[-1] != ']')
            close--;
        if (!open || close <= open + 1) {
            st = hta_diag_set(d, HTA_ERR_INPUT, path, line,
                              "expected a location list '[...]' for block "
                              "%.*s, found none",
                              (int)name_len, name);
            goto cleanup;
        }
        if (ntasks + 2 > capt) {
            capt = capt ? capt * 2 : 1024;
            int64_t *no = realloc(off, (size_t)capt * sizeof *no);
            if (no)
                off = no;
            char **nb = realloc(blk, (size_t)capt * sizeof *nb);
            if (nb)
                blk = nb;
            if (!no || !nb) {
                st = hta_diag_set(d, HTA_ERR_INTERNAL, path, 0,
                                  "out of memory");
                goto cleanup;
            }
        }
        off[ntasks] = nsrv;
        blk[ntasks] = dup_n(name, name_len);
        if (!blk[ntasks]) {
            st = hta_diag_set(d, HTA_ERR_INTERNAL, path, 0, "out of memory");
            goto cleanup;
        }
        ntasks++;
        /* items separated by top-level commas inside [ ... ] */
        const char *q = open + 1, *list_end = close - 1;
        while (q < list_end) {
            while (q < list_end && (*q == ' ' || *q == ','))
                q++;
            if (q >= list_end)
                break;
            const char *item = q;
            int depth = 0;
            while (q < list_end && (depth > 0 || *q != ',')) {
                depth += *q == '[';
                depth -= *q == ']';
                q++;
            }
            const char *item_end = q;
            while (item_end > item && item_end[-1] == ' ')
                item_end--;
            const char *node = item, *node_end = item_end, *rack = NULL;
            size_t rack_len = 0;
            const char *br = memchr(item, '[', (size_t)(item_end - item));
            if (br) { /* DatanodeInfoWithStorage[ip:port,DS-...,DISK] */
                node = br + 1;
                node_end = node;
                while (node_end < item_end && *node_end != ',' &&
                       *node_end != ']')
                    node_end++;
            } else if (*item == '/') { /* /rack/ip:port */
                const char *slash = item_end;
                while (slash > item && slash[-1] != '/')
                    slash--;
                rack = item;
                rack_len = (size_t)(slash - 1 - item);
                node = slash;
            }
            if (node_end <= node || !memchr(node, ':', (size_t)(node_end - node))) {
                st = hta_diag_set(d, HTA_ERR_INPUT, path, line,
                                  "expected a datanode 'host:port' in the "
                                  "locations of block %.*s, found '%.*s'",
                                  (int)name_len, name,
                                  (int)(item_end - item > 60 ? 60 :
                                                                item_end - item),
                                  item);
                goto cleanup;
            }
            int32_t id = names_get(&nm, node, (size_t)(node_end - node));
            if (id < 0) {
                st = hta_diag_set(d, HTA_ERR_INTERNAL, path, 0,
                                  "out of memory");
                goto cleanup;
            }
            if (rack && rack_len > 0 && !nm.rack[id])
                nm.rack[id] = dup_n(rack, rack_len);
            int dup = 0;
            for (int64_t i = off[ntasks - 1]; i < nsrv; i++)
                dup |= srv[i] == id;
            if (dup)
                continue;
            if (nsrv + 1 > caps) {
                caps = caps ? caps * 2 : 4096;
                int32_t *ns = realloc(srv, (size_t)caps * sizeof *ns);
                if (!ns) {
                    st = hta_diag_set(d, HTA_ERR_INTERNAL, path, 0,
                                      "out of memory");
                    goto cleanup;
                }
                srv = ns;
            }
            srv[nsrv++] = id;
        }
        if (nsrv == off[ntasks - 1]) {
            st = hta_diag_set(d, HTA_ERR_INPUT, path, line,
                              "expected at least one datanode for block "
                              "%.*s, found an empty list",
                              (int)name_len, name);
            goto cleanup;
        }
        off[ntasks] = nsrv;
        p = next;
    }
    if (ntasks == 0) {
        st = hta_diag_set(d, HTA_ERR_INPUT, path, line,
                          "expected block lines ('<k>. <pool>:blk_... "
                          "[locations]'), found %s",
                          res->missing ? "only MISSING blocks" : "none");
        goto cleanup;
    }
    if (ntasks > HTA_MAX_TASKS || nm.count > HTA_MAX_SERVERS) {
        st = hta_diag_set(d, HTA_ERR_INPUT, path, 0,
                          "too many blocks or datanodes");
        goto cleanup;
    }
    if ((st = hta_instance_build((int32_t)ntasks, (int32_t)nm.count, w_loc,
                                 wrem, off, srv, out, d)) != HTA_OK)
        goto cleanup;
    for (int64_t t = 0; t < ntasks && st == HTA_OK; t++)
        st = hta_instance_set_name(*out, 't', (int32_t)t, blk[t]);
    for (int64_t j = 0; j < nm.cap && st == HTA_OK; j++)
        if (nm.key[j])
            st = hta_instance_set_name(*out, 's', nm.id[j], nm.key[j]);
    for (int64_t s = 0; s < nm.count && st == HTA_OK; s++)
        if (nm.rack[s])
            st = hta_instance_set_name(*out, 'r', (int32_t)s, nm.rack[s]);
    if (st != HTA_OK) {
        hta_instance_free(*out);
        *out = NULL;
        st = hta_diag_set(d, HTA_ERR_INTERNAL, path, 0, "out of memory");
    }
cleanup:
    for (int64_t t = 0; t < ntasks; t++)
        free(blk[t]);
    free(blk);
    free(off);
    free(srv);
    names_free(&nm);
    hta_lex_free(&lx);
    return st;
}

void hta_fsck_result_free(hta_fsck_result *res)
{
    if (!res)
        return;
    free(res->missing_line);
    res->missing_line = NULL;
}
