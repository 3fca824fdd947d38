/* Shared pieces of the SVG pictures (svg.h). */
#include "chart/svg.h"

#include <math.h>

/* The length of the UTF-8 sequence at p that XML 1.0 allows as a
 * character (no overlong form, no surrogate, not U+FFFE or U+FFFF, at
 * most U+10FFFF), or 0. */
static int xml_char(const unsigned char *p)
{
    unsigned c = p[0];
    int n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
    if (n == 0 || c > 0xf4)
        return 0;
    unsigned cp = c & (0x3fu >> (n - 1));
    for (int i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3fu);
    }
    static const unsigned least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
        cp == 0xfffe || cp == 0xffff)
        return 0;
    return n;
}

void hta_svg_escape(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        if (*p == '<')
            fputs("&lt;", f);
        else if (*p == '>')
            fputs("&gt;", f);
        else if (*p == '&')
            fputs("&amp;", f);
        else if (*p == '"')
            fputs("&quot;", f);
        else if (*p < 0x20)
            fputc('?', f);
        else if (*p < 0x80)
            fputc(*p, f);
        else {
            int n = xml_char(p);
            if (n == 0) { /* not UTF-8, or no XML character: one '?' */
                fputc('?', f);
                p++;
                continue;
            }
            fwrite(p, 1, (size_t)n, f);
            p += n;
            continue;
        }
        p++;
    }
}

double hta_svg_nice_step(double range)
{
    if (!(range > 0) || !isfinite(range))
        return 1;
    double raw = range / 6, p = pow(10, floor(log10(raw)));
    double m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}
