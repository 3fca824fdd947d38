/* Shared pieces of the SVG pictures (svg.h). */
#include "chart/svg.h"

#include <math.h>

void hta_svg_escape(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else if ((unsigned char)*s < 0x20)
            fputc('?', f);
        else
            fputc(*s, f);
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
