/* hdfs fsck importer (Hadoop 2 and 3 formats). */
#include "hta/fsck.h"
#include "hta/levels.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/lex.h"

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

/* The importer's state: tasks (blocks) in CSR form as they are read. */
typedef struct importer {
    hta_lex lx;
    const char *path;
    int strict;
    hta_fsck_result *res;
    names nm;
    int64_t ntasks, nsrv;
    int64_t *off;
    int32_t *srv;
    char **blk;
    int32_t *stamp; /* per datanode: last task + 1 listing it */
    long *node_line; /* per datanode: its rack's line, else its first */
    int32_t nstamp; /* entries of stamp and node_line set */
    long last;      /* the last line read */
    long head_line; /* the current file's header line (0: none) */
    int64_t head_said, head_found; /* its "N block(s)", block lines seen */
    size_t cap_off, cap_srv, cap_blk, cap_stamp, cap_line, cap_warn;
} importer;

/* A warning at line, its text formatted; 0 when out of memory. */
static int warn(importer *im, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int warn(importer *im, long line, const char *fmt, ...)
{
    hta_fsck_result *r = im->res;
    if (!HTA_RESERVE(r->warnings, im->cap_warn, (size_t)r->nwarnings + 1))
        return 0;
    hta_fsck_warning *w = &r->warnings[r->nwarnings++];
    w->line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->text, sizeof w->text, fmt, ap);
    va_end(ap);
    return 1;
}

/* The header of a file's blocks, "<path> <size> bytes, [replicated:
 * replication=K,] <N> block(s):": N into *said. */
static int is_file_header(const char *p, const char *end, int64_t *said)
{
    static const char key[] = " block(s):";
    const size_t kl = sizeof key - 1;
    for (const char *x = p; x + kl <= end; x++)
        if (memcmp(x, key, kl) == 0) {
            const char *q = x;
            while (q > p && isdigit((unsigned char)q[-1]))
                q--;
            if (q == x || x - q > 18)
                return 0;
            int64_t n = 0;
            for (; q < x; q++)
                n = n * 10 + (*q - '0');
            *said = n;
            return 1;
        }
    return 0;
}

/* The file whose header was read last ends: its count checked. */
static int end_file(importer *im)
{
    int ok = 1;
    if (im->head_line && im->head_said != im->head_found)
        ok = warn(im, im->head_line,
                  "the header says %lld block(s), found %lld block "
                  "line%s under it",
                  (long long)im->head_said, (long long)im->head_found,
                  im->head_found == 1 ? "" : "s");
    im->head_line = 0;
    return ok;
}

#define OOM(im) \
    hta_diag_set(d, HTA_ERR_INTERNAL, (im)->path, (im)->lx.line, \
                 "out of memory")

/* One item of a location list: DatanodeInfoWithStorage[ip:port,...],
 * /rack/ip:port or ip:port. */
static hta_status add_location(importer *im, const char *item,
                               const char *item_end, const char *name,
                               size_t name_len, hta_diag *d)
{
    const char *node = item, *node_end = item_end, *rack = NULL;
    size_t rack_len = 0;
    const char *br = memchr(item, '[', (size_t)(item_end - item));
    if (br) {
        node = br + 1;
        node_end = node;
        while (node_end < item_end && *node_end != ',' && *node_end != ']')
            node_end++;
    } else if (*item == '/') {
        const char *slash = item_end;
        while (slash > item && slash[-1] != '/')
            slash--;
        rack = item;
        rack_len = (size_t)(slash - 1 - item);
        node = slash;
    }
    if (node_end <= node || !memchr(node, ':', (size_t)(node_end - node)))
        return hta_diag_set(d, HTA_ERR_INPUT, im->path, im->lx.line,
                            "expected a datanode 'host:port' in the "
                            "locations of block %.*s, found '%.*s'",
                            (int)(name_len > 80 ? 80 : name_len), name,
                            (int)(item_end - item > 60 ? 60 :
                                                          item_end - item),
                            item);
    int32_t id = names_get(&im->nm, node, (size_t)(node_end - node));
    if (id < 0 || !HTA_RESERVE(im->stamp, im->cap_stamp, (size_t)id + 1) ||
        !HTA_RESERVE(im->node_line, im->cap_line, (size_t)id + 1))
        return OOM(im);
    while (im->nstamp <= id) { /* new datanodes */
        im->node_line[im->nstamp] = im->lx.line;
        im->stamp[im->nstamp++] = 0;
    }
    const char *had = im->nm.rack[id];
    if (rack && rack_len > 0 && had &&
        (strlen(had) != rack_len || memcmp(had, rack, rack_len) != 0))
        return hta_diag_set(d, HTA_ERR_INPUT, im->path, im->lx.line,
                            "expected datanode %.*s in one rack, found "
                            "'%.*s' here and '%.60s' before",
                            (int)(node_end - node > 60 ? 60 : node_end - node),
                            node, (int)(rack_len > 60 ? 60 : rack_len), rack,
                            had);
    if (rack && rack_len > 0 && !had) {
        if (!(im->nm.rack[id] = strndup(rack, rack_len)))
            return OOM(im);
        im->node_line[id] = im->lx.line;
    }
    /* Listed twice for one block: once is enough (linear: a stamp per
     * datanode, not a scan of the block's list). */
    if (im->stamp[id] == im->ntasks)
        return HTA_OK;
    im->stamp[id] = (int32_t)im->ntasks;
    if (!HTA_RESERVE(im->srv, im->cap_srv, (size_t)im->nsrv + 1))
        return OOM(im);
    im->srv[im->nsrv++] = id;
    return HTA_OK;
}

/* The list between the first '[' after the block name and the ']' that
 * closes it, which must end the line: a cut or unbalanced list is an
 * error. */
static hta_status parse_block(importer *im, const char *p, const char *end,
                              hta_diag *d)
{
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
    int nl = (int)(name_len > 80 ? 80 : name_len);
    im->res->blocks++;
    for (const char *x = tend; x + 7 <= end; x++)
        if (memcmp(x, "MISSING", 7) == 0) {
            if (im->strict)
                return hta_diag_set(d, HTA_ERR_INPUT, im->path, im->lx.line,
                                    "expected a block with replicas, found "
                                    "MISSING block %.*s",
                                    nl, name);
            im->res->missing++;
            if (!warn(im, im->lx.line, "MISSING block (no replica) left out"))
                return OOM(im);
            return HTA_OK;
        }
    const char *open = memchr(tend, '[', (size_t)(end - tend));
    const char *last = end;
    while (last > tend && (last[-1] == ' ' || last[-1] == '\t'))
        last--;
    if (!open)
        return hta_diag_set(d, HTA_ERR_INPUT, im->path, im->lx.line,
                            "expected a location list '[...]' for block "
                            "%.*s, found none",
                            nl, name);
    /* balance: the list closes exactly at the end of the line */
    int depth = 0;
    const char *close = NULL;
    for (const char *x = open; x < last; x++) {
        depth += *x == '[';
        depth -= *x == ']';
        if (depth == 0) {
            close = x;
            break;
        }
    }
    if (!close || close + 1 != last)
        return hta_diag_set(d, HTA_ERR_INPUT, im->path, im->lx.line,
                            "expected the location list of block %.*s to "
                            "end with its ']', found %s",
                            nl, name,
                            close ? "text after it" :
                                    "the end of the line (a cut file?)");
    if (!HTA_RESERVE(im->off, im->cap_off, (size_t)im->ntasks + 2) ||
        !HTA_RESERVE(im->blk, im->cap_blk, (size_t)im->ntasks + 1))
        return OOM(im);
    im->off[im->ntasks] = im->nsrv;
    if (!(im->blk[im->ntasks] = strndup(name, name_len)))
        return OOM(im);
    im->ntasks++;
    /* items separated by top-level commas inside [ ... ] */
    const char *q = open + 1;
    hta_status st;
    while (q < close) {
        while (q < close && (*q == ' ' || *q == ','))
            q++;
        if (q >= close)
            break;
        const char *item = q;
        int dp = 0;
        while (q < close && (dp > 0 || *q != ',')) {
            dp += *q == '[';
            dp -= *q == ']';
            q++;
        }
        const char *item_end = q;
        while (item_end > item && item_end[-1] == ' ')
            item_end--;
        if ((st = add_location(im, item, item_end, name, name_len, d)) !=
            HTA_OK)
            return st;
    }
    if (im->nsrv == im->off[im->ntasks - 1])
        return hta_diag_set(d, HTA_ERR_INPUT, im->path, im->lx.line,
                            "expected at least one datanode for block "
                            "%.*s, found an empty list",
                            nl, name);
    im->off[im->ntasks] = im->nsrv;
    return HTA_OK;
}

/* The instance from what was read, names attached. */
static hta_status build(importer *im, double w_loc, const hta_wrem *wrem,
                        hta_instance **out, hta_diag *d)
{
    if (im->ntasks == 0)
        return hta_diag_set(d, HTA_ERR_INPUT, im->path, im->last,
                            "expected block lines ('<k>. <pool>:blk_... "
                            "[locations]'), found %s",
                            im->res->missing ? "only MISSING blocks" : "none");
    if (im->ntasks > HTA_MAX_TASKS || im->nm.count > HTA_MAX_SERVERS)
        return hta_diag_set(d, HTA_ERR_INPUT, im->path, im->last,
                            "expected at most %lld blocks and %lld "
                            "datanodes, found %lld and %lld",
                            HTA_MAX_TASKS, HTA_MAX_SERVERS,
                            (long long)im->ntasks, (long long)im->nm.count);
    hta_status st = hta_instance_build((int32_t)im->ntasks,
                                       (int32_t)im->nm.count, w_loc, wrem,
                                       im->off, im->srv, out, d);
    if (st != HTA_OK)
        return st;
    for (int64_t t = 0; t < im->ntasks && st == HTA_OK; t++)
        st = hta_instance_set_name(*out, 't', (int32_t)t, im->blk[t], d);
    for (int64_t j = 0; j < im->nm.cap && st == HTA_OK; j++)
        if (im->nm.key[j]) {
            st = hta_instance_set_name(*out, 's', im->nm.id[j],
                                       im->nm.key[j], d);
        }
    for (int64_t s = 0; s < im->nm.count && st == HTA_OK; s++)
        if (im->nm.rack[s])
            st = hta_instance_set_name(*out, 'r', (int32_t)s, im->nm.rack[s],
                                       d);
    if (st != HTA_OK) {
        hta_instance_free(*out);
        *out = NULL;
        d->path = im->path; /* a name the gate refused, or out of memory */
    }
    return st;
}

hta_status hta_fsck_check_depth(int nlev, int rack_depth, hta_diag *d)
{
    if (rack_depth < 0 || rack_depth > HTA_MAX_LEVELS - 2)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "--rack-depth: expected an integer in [1, %d], "
                            "found %d",
                            HTA_MAX_LEVELS - 2, rack_depth);
    if (nlev > 0 && rack_depth > 0 && rack_depth != nlev)
        return hta_diag_set(d, HTA_ERR_USAGE, NULL, 0,
                            "--rack-depth: expected %d (%s), found %d",
                            nlev,
                            nlev == 1 ? "--w-rack prices one name, the rack" :
                                        "--w-rack and --w-pod price two "
                                        "names, the pod and the rack",
                            rack_depth);
    return HTA_OK;
}

/* The options that price a rack path's names, for the words. */
static const char *priced(int nlev)
{
    return nlev == 1 ? "--w-rack prices the rack" :
                       "--w-rack and --w-pod price the pod and the rack";
}

hta_status hta_fsck_set_levels(hta_instance *inst, const char *path,
                               const hta_fsck_result *res,
                               const hta_wrem *wlev, int nlev,
                               int rack_depth, hta_diag *d)
{
    hta_status st = hta_fsck_check_depth(nlev, rack_depth, d);
    if (st != HTA_OK)
        return st;
    const char *opt = nlev ? "--w-rack" : "--rack-depth";
    for (int32_t s = 0; s < inst->n_declared; s++) {
        long line = res && s < res->nodes ? res->node_line[s] : 0;
        const char *node = hta_instance_name(inst, 's', s);
        const char *rack = hta_instance_name(inst, 'r', s);
        if (!rack)
            return hta_diag_set(d, HTA_ERR_INPUT, path, line,
                                "expected a rack for every datanode with "
                                "%s (hdfs fsck ... -racks), found none for "
                                "datanode %ld%s%.80s%s",
                                opt, (long)s, node ? " (" : "",
                                node ? node : "", node ? ")" : "");
        int depth = hta_rack_depth(rack);
        if (depth == 0)
            return hta_diag_set(d, HTA_ERR_INPUT, path, line,
                                "expected a rack path of non-empty names, "
                                "found '%.200s'",
                                rack);
        if (rack_depth > depth)
            return hta_diag_set(d, HTA_ERR_INPUT, path, line,
                                "expected a rack path of at least %d names "
                                "(--rack-depth %d keeps the last %d), found "
                                "'%.200s'",
                                rack_depth, rack_depth, rack_depth, rack);
        if (rack_depth > 0 && rack_depth < depth) {
            /* the last rack_depth names: after the (depth - rack_depth)th
               separator past the leading one */
            const char *p = rack[0] == '/' ? rack + 1 : rack;
            for (int k = 0; k < depth - rack_depth; p++)
                k += *p == '/';
            char *cut = malloc(strlen(p) + 2);
            if (!cut)
                return hta_diag_set(d, HTA_ERR_INTERNAL, path, 0,
                                    "out of memory");
            cut[0] = '/';
            strcpy(cut + 1, p);
            st = hta_instance_set_name(inst, 'r', s, cut, d);
            free(cut);
            if (st != HTA_OK) {
                d->path = path;
                return st;
            }
            depth = rack_depth;
        }
        if (nlev == 0 || depth == nlev)
            continue;
        rack = hta_instance_name(inst, 'r', s);
        if (depth == 2 && nlev == 1)
            return hta_diag_set(d, HTA_ERR_INPUT, path, line,
                                "expected a rack path of 1 name (%s), found "
                                "'%.200s' (2 names): give --w-pod for the "
                                "pod level (the first name), or "
                                "--rack-depth 1 to keep the last name",
                                priced(nlev), rack);
        if (depth > nlev)
            return hta_diag_set(d, HTA_ERR_INPUT, path, line,
                                "expected a rack path of %d name%s (%s), "
                                "found '%.200s' (%d names): give "
                                "--rack-depth %d to keep the last %s",
                                nlev, nlev == 1 ? "" : "s", priced(nlev),
                                rack, depth, nlev,
                                nlev == 1 ? "name" : "two names");
        return hta_diag_set(d, HTA_ERR_INPUT, path, line,
                            "expected a rack path of %d names (%s), found "
                            "'%.200s' (%d name): leave out --w-pod, or give "
                            "racks as /pod/rack",
                            nlev, priced(nlev), rack, depth);
    }
    if (nlev == 0)
        return HTA_OK;
    st = hta_instance_set_levels(inst, wlev, nlev, d);
    if (st == HTA_ERR_INPUT)
        d->path = path;
    return st;
}

hta_status hta_fsck_import(const char *path, double w_loc,
                           const hta_wrem *wrem, int strict,
                           hta_instance **out, hta_fsck_result *res,
                           hta_diag *d)
{
    *out = NULL;
    memset(res, 0, sizeof *res);
    importer im;
    memset(&im, 0, sizeof im);
    im.path = path;
    im.strict = strict;
    im.res = res;
    hta_status st = hta_lex_open(&im.lx, path, d);
    int more = 1;
    while (st == HTA_OK && (st = hta_lex_raw(&im.lx, &more, d)) == HTA_OK &&
           more) {
        im.last = im.lx.line;
        const char *p = im.lx.buf, *end = p + im.lx.len;
        if (end > p && end[-1] == '\r')
            end--;
        int64_t said;
        if (is_block_line(p, end)) {
            im.head_found++;
            st = parse_block(&im, p, end, d);
        } else if (is_file_header(p, end, &said)) {
            if (!end_file(&im))
                st = OOM(&im);
            im.head_line = im.lx.line;
            im.head_said = said;
            im.head_found = 0;
        }
    }
    if (st == HTA_OK && !end_file(&im))
        st = OOM(&im);
    if (st == HTA_OK)
        st = build(&im, w_loc, wrem, out, d);
    if (st == HTA_OK) { /* the datanodes' lines, for hta_fsck_set_levels */
        res->node_line = im.node_line;
        res->nodes = im.nstamp;
        im.node_line = NULL;
    }
    free(im.node_line);
    for (int64_t t = 0; t < im.ntasks; t++)
        free(im.blk[t]);
    free(im.blk);
    free(im.off);
    free(im.srv);
    free(im.stamp);
    names_free(&im.nm);
    hta_lex_free(&im.lx);
    if (st != HTA_OK)
        hta_fsck_result_free(res);
    return st;
}

void hta_fsck_result_free(hta_fsck_result *res)
{
    if (!res)
        return;
    free(res->warnings);
    free(res->node_line);
    res->warnings = NULL;
    res->nwarnings = 0;
    res->node_line = NULL;
    res->nodes = 0;
}
