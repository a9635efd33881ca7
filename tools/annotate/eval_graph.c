/* eval_graph.c - the evaluation graph as SVG; see eval_graph.h. */
#include "eval_graph.h"

#define WIDTH 720
#define HEIGHT 300
#define LEFT 48   /* room for the axis labels */
#define RIGHT 110 /* room for the legend */
#define TOP 28
#define BOTTOM 28

/* Line colours by seat: the seats' colours, white drawn grey on the white page. */
static const char *const COLOURS[MAX_SEATS] = {"#8a8a8a", "#d32f2f", "#1976d2", "#212121", "#f9a825", "#2e7d32"};
static const char *const NAMES[MAX_SEATS] = {"white", "red", "blue", "black", "yellow", "green"};

static void put_escaped(FILE *f, const char *s)
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
        else
            fputc(*s, f);
    }
}

static double x_of(int i, int n) { return LEFT + (n > 1 ? (double)i * (WIDTH - LEFT - RIGHT) / (n - 1) : 0); }

static double y_of(int score)
{
    const int c = score > EVAL_GRAPH_CLAMP ? EVAL_GRAPH_CLAMP : score < -EVAL_GRAPH_CLAMP ? -EVAL_GRAPH_CLAMP : score;
    return TOP + (double)(EVAL_GRAPH_CLAMP - c) * (HEIGHT - TOP - BOTTOM) / (2.0 * EVAL_GRAPH_CLAMP);
}

int eval_graph_svg(FILE *f, const Variant *v, const char *title, int n, const int (*score)[MAX_SEATS],
                   const bool (*has)[MAX_SEATS])
{
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"sans-serif\" font-size=\"11\">\n",
            WIDTH, HEIGHT, WIDTH, HEIGHT);
    fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n<text x=\"%d\" y=\"16\" font-size=\"13\">", WIDTH,
            HEIGHT, LEFT);
    put_escaped(f, title);
    fputs("</text>\n", f);
    /* the grid: a line every two moves of score, 0 stronger */
    for (int s = -EVAL_GRAPH_CLAMP; s <= EVAL_GRAPH_CLAMP; s += 200)
        fprintf(f,
                "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>"
                "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%+d</text>\n",
                LEFT, y_of(s), WIDTH - RIGHT, y_of(s), s ? "#e6e6e6" : "#9e9e9e", LEFT - 6, y_of(s) + 4, s / 100);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">ply %d</text>\n", WIDTH - RIGHT, HEIGHT - 8,
            n > 0 ? n - 1 : 0);
    for (int k = 0; k < v->nseats; k++) {
        const int s = v->seats[k];
        bool open = false;
        for (int i = 0; i < n; i++) {
            if (!has[i][s]) {
                if (open)
                    fputs("\"/>\n", f);
                open = false;
                continue;
            }
            if (!open)
                fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", COLOURS[s]);
            fprintf(f, "%s%.1f,%.1f", open ? " " : "", x_of(i, n), y_of(score[i][s]));
            open = true;
        }
        if (open)
            fputs("\"/>\n", f);
        fprintf(f,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"/>"
                "<text x=\"%d\" y=\"%d\">%s</text>\n",
                WIDTH - RIGHT + 12, TOP + 6 + 16 * k, WIDTH - RIGHT + 30, TOP + 6 + 16 * k, COLOURS[s],
                WIDTH - RIGHT + 36, TOP + 10 + 16 * k, NAMES[s]);
    }
    fputs("</svg>\n", f);
    return ferror(f) ? -1 : 0;
}
