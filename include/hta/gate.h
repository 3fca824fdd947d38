/* The one gate: the rules a value must keep to enter an instance, checked
 * in one place whatever the door (the file reader, hta_instance_build,
 * hta_instance_set_levels, hta_instance_set_name, the Python package), so
 * that every door refuses the same things with the same words.
 *
 * Every check returns HTA_OK or HTA_ERR_INPUT with a message "expected
 * ..., found '...'"; path and line (NULL and 0 from a caller's arguments)
 * place it.  Where a value came from text, tok quotes that text as read;
 * else the value is printed.
 *
 * Names are written escaped (hta_name_escape) so that the reader gives
 * back the bytes the caller gave: in a file a name is one token, and %XX
 * (two hex digits) stands for the byte XX.  The writer escapes '%', '#',
 * and every byte below 0x21 or equal to 0x7f; any other byte (UTF-8
 * included) is written as it is.  A name is 1 to HTA_MAX_NAME bytes
 * without NUL.
 *
 * Ownership: nothing is kept; the checks borrow their arguments.
 */
#ifndef HTA_GATE_H
#define HTA_GATE_H

#include <stddef.h>
#include <stdint.h>

#include "hta/diag.h"
#include "hta/instance.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The longest name, in bytes (unescaped). */
#define HTA_MAX_NAME 4096

/* w_loc: finite and > 0. */
hta_status hta_gate_w_loc(double w_loc, const char *tok, const char *path,
                          long line, hta_diag *d);

/* One cost function (w_rem, or the cost of a level between local and
 * remote) for m tasks, named name ("w_rem", "w_level 2") in messages: a
 * table of 1 to HTA_MAX_WREM_TABLE values, each finite, w(0) >= w_loc,
 * each no less than the one before; or affine a + b*r with a and b
 * finite, a >= w_loc, b >= 0; and m * w(m) finite.  tok (or NULL) holds
 * the values' text: the table's k + 1 values, or a and b.  O(table). */
hta_status hta_gate_cost(double w_loc, const hta_wrem *w, int64_t m,
                         const char *name, const char *const *tok,
                         const char *path, long line, hta_diag *d);

/* A name of kind 't' (task), 's' (server) or 'r' (rack path) for id,
 * given unescaped: 1 to HTA_MAX_NAME bytes, len of them (NUL among them
 * is refused: a caller may pass a buffer with NULs, as Python's str
 * can hold).  O(len). */
hta_status hta_gate_name(char kind, const char *name, size_t len,
                         const char *path, long line, hta_diag *d);

/* The escaped form of name into out (at most 3 * strlen(name) + 1
 * bytes); returns out. */
char *hta_name_escape(const char *name, char *out);

/* The bytes of an escaped name: tok decoded into out (at most strlen(tok)
 * + 1 bytes, NUL-terminated), its length in *len.  HTA_ERR_INPUT when a
 * '%' is not followed by two hex digits, or the name is not one by
 * hta_gate_name's rules.  O(strlen(tok)). */
hta_status hta_name_unescape(char kind, const char *tok, char *out,
                             size_t *len, const char *path, long line,
                             hta_diag *d);

#ifdef __cplusplus
}
#endif

#endif
