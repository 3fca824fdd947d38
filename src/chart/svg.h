/* What every SVG picture shares: text escaped for
 * XML and axis ticks at round numbers.
 *
 * Ownership: borrows everything; writes to the caller's FILE.
 */
#ifndef HTA_CHART_SVG_H
#define HTA_CHART_SVG_H

#include <stdio.h>

/* s as XML character data or an attribute value: control bytes, which
 * XML 1.0 does not allow, become '?', and so
 * does each byte that is not part of a UTF-8 sequence XML allows
 * (invalid UTF-8, surrogates, U+FFFE, U+FFFF). */
void hta_svg_escape(FILE *f, const char *s);

/* A tick step of 1, 2 or 5 times a power of ten giving 4 to 10 ticks
 * over range (1 when range is not positive). */
double hta_svg_nice_step(double range);

#endif
