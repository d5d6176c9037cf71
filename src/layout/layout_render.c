/* tc5 — pictures of a shared-memory layout (text and SVG).
 *
 * Two views of the same map, in 16-byte chunks (the unit that swizzling
 * moves and the spec's layout figures draw):
 *   matrix  one line per element row (K-major: a row of M/N; MN-major: a
 *           row of K), one cell per chunk along the contiguous dimension:
 *           the chunk's address and its bank group (address / 16 mod 8;
 *           group g holds banks 4g..4g+3);
 *   memory  one line per 128 bytes (all 32 banks), one cell per chunk:
 *           which row and which first element of the contiguous dimension
 *           it holds.
 * SVG colours cells by bank group in the matrix and by row in the memory. */
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "tc5/layout.h"

typedef struct cell {
  uint32_t row, first; /* row and first contiguous element held */
  bool used;
} cell;

static const char *palette[8] = {"#e41a1c", "#377eb8", "#4daf4a", "#984ea3",
                                 "#ff7f00", "#e6c700", "#a65628", "#f781bf"};

tc5_status tc5_layout_render(const tc5_smem_desc *d, const tc5_operand *op, unsigned rows,
                             unsigned kdim, tc5_layout_view view, char *buf, size_t cap,
                             size_t *needed, tc5_diag *diag) {
  if (!d || !op || (!buf && cap)) return TC5_EINVAL;
  if (view != TC5_VIEW_TEXT && view != TC5_VIEW_SVG) return TC5_EINVAL;
  if (rows == 0 || kdim == 0 || rows > 256 || kdim > 512)
    return tc5_diag_add(diag, TC5_ERANGE, "extent", (uint64_t)rows << 32 | kdim,
                        "layout: pictures are drawn for up to 256 x 512 elements, not %u x %u",
                        rows, kdim);
  tc5_status st = tc5_layout_check(d, op, rows, kdim, TC5_SMEM_WINDOW_BYTES, diag);
  if (st) return st;
  unsigned T = 128 / tc5_operand_slot_bits(op);
  bool kmaj = op->major == TC5_MAJOR_K;
  unsigned nlines = kmaj ? rows : kdim;               /* matrix lines */
  unsigned ncells = ((kmaj ? kdim : rows) + T - 1) / T; /* chunks per line */
  uint32_t *addr = malloc(sizeof *addr * (size_t)nlines * ncells);
  if (!addr) return TC5_ENOMEM;
  uint32_t lo = UINT32_MAX, hi = 0;
  for (unsigned y = 0; y < nlines; y++)
    for (unsigned c = 0; c < ncells; c++) {
      tc5_elem_loc l;
      tc5_layout_addr(d, op, kmaj ? y : c * T, kmaj ? c * T : y, &l, NULL);
      addr[(size_t)y * ncells + c] = l.chunk;
      if (l.chunk < lo) lo = l.chunk;
      if (l.chunk > hi) hi = l.chunk;
    }
  lo &= ~127u;
  unsigned mlines = (hi - lo) / 128 + 1;
  cell *mem = NULL;
  if (mlines <= 4096) mem = calloc((size_t)mlines * 8, sizeof *mem);
  if (mem)
    for (unsigned y = 0; y < nlines; y++)
      for (unsigned c = 0; c < ncells; c++) {
        uint32_t a = addr[(size_t)y * ncells + c] - lo;
        cell *m = &mem[a / 16];
        m->used = true, m->row = y, m->first = c * T;
      }
  tc5_sb sb;
  tc5_sb_init(&sb);
  uint64_t raw = 0;
  tc5_smem_desc_encode(d, &raw, NULL);
  const char *ln = kmaj ? "mn" : "k";
  const char *cn = kmaj ? "k" : "mn";
  if (view == TC5_VIEW_TEXT) {
    tc5_sb_printf(&sb, "smem desc 0x%016llx: start 0x%x, LBO %u, SBO %u, swizzle %s, base offset %u\n",
                  (unsigned long long)raw, d->start_address, d->lbo, d->sbo,
                  tc5_swizzle_name(d->swizzle), d->base_offset);
    tc5_sb_printf(&sb, "operand: %s, %s-major, %u x %u elements (mn x k), %u elements per 16-byte chunk\n\n",
                  tc5_type_name(op->type), tc5_major_name(op->major), rows, kdim, T);
    tc5_sb_printf(&sb, "matrix: a line per %s, a cell per 16-byte chunk of %s: address/bank group\n",
                  ln, cn);
    tc5_sb_printf(&sb, "%8s", "");
    for (unsigned c = 0; c < ncells; c++) tc5_sb_printf(&sb, " %s%-7u", cn, c * T);
    tc5_sb_putc(&sb, '\n');
    for (unsigned y = 0; y < nlines; y++) {
      tc5_sb_printf(&sb, "%-2s %-5u", ln, y);
      for (unsigned c = 0; c < ncells; c++) {
        uint32_t a = addr[(size_t)y * ncells + c];
        tc5_sb_printf(&sb, " %05x/%u ", a, (a / 16) % 8);
      }
      tc5_sb_putc(&sb, '\n');
    }
    if (mem) {
      tc5_sb_printf(&sb, "\nmemory: a line per 128 bytes (banks 0-31), a cell per chunk: %s:%s held\n",
                    ln, cn);
      for (unsigned ml = 0; ml < mlines; ml++) {
        bool any = false;
        for (unsigned c = 0; c < 8; c++) any |= mem[ml * 8 + c].used;
        if (!any) continue;
        tc5_sb_printf(&sb, "0x%05x ", lo + ml * 128);
        for (unsigned c = 0; c < 8; c++) {
          const cell *m = &mem[ml * 8 + c];
          if (m->used) tc5_sb_printf(&sb, " %4u:%-4u", m->row, m->first);
          else tc5_sb_printf(&sb, " %9s", ".");
        }
        tc5_sb_putc(&sb, '\n');
      }
    } else {
      tc5_sb_printf(&sb, "\nmemory: the layout spans more than 512 KB of lines; not drawn\n");
    }
  } else {
    const unsigned cw = 64, ch = 18, top = 60;
    unsigned mw = 60 + ncells * cw, mh = top + 20 + nlines * ch;
    unsigned memw = 80 + 8 * cw;
    unsigned shown = 0;
    if (mem)
      for (unsigned ml = 0; ml < mlines; ml++) {
        bool any = false;
        for (unsigned c = 0; c < 8; c++) any |= mem[ml * 8 + c].used;
        shown += any;
      }
    unsigned W = mw + 40 + memw, H = (mh > top + 20 + shown * ch ? mh : top + 20 + shown * ch) + 20;
    tc5_sb_printf(&sb,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" "
                  "font-family=\"monospace\" font-size=\"10\">\n",
                  W, H);
    tc5_sb_printf(&sb, "<text x=\"10\" y=\"16\" font-size=\"12\">smem desc 0x%016llx: %s %s-major, "
                       "swizzle %s, LBO %u, SBO %u, start 0x%x, base offset %u</text>\n",
                  (unsigned long long)raw, tc5_type_name(op->type), tc5_major_name(op->major),
                  tc5_swizzle_name(d->swizzle), d->lbo, d->sbo, d->start_address, d->base_offset);
    tc5_sb_printf(&sb, "<text x=\"10\" y=\"36\">matrix: %s down, 16-byte chunks of %s across; "
                       "address, coloured by bank group</text>\n", ln, cn);
    tc5_sb_printf(&sb, "<text x=\"%u\" y=\"36\">memory: 128 bytes a line; %s:%s held, coloured by "
                       "%s mod 8</text>\n", mw + 40, ln, cn, ln);
    for (unsigned y = 0; y < nlines; y++) {
      tc5_sb_printf(&sb, "<text x=\"10\" y=\"%u\">%s %u</text>\n", top + y * ch + 13, ln, y);
      for (unsigned c = 0; c < ncells; c++) {
        uint32_t a = addr[(size_t)y * ncells + c];
        unsigned x = 60 + c * cw, yy = top + y * ch;
        tc5_sb_printf(&sb,
                      "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"%s\" "
                      "fill-opacity=\"0.45\" stroke=\"#333\" stroke-width=\"0.5\"/>"
                      "<text x=\"%u\" y=\"%u\">%05x</text>\n",
                      x, yy, cw, ch, palette[(a / 16) % 8], x + 4, yy + 13, a);
      }
    }
    if (mem) {
      unsigned line = 0;
      for (unsigned ml = 0; ml < mlines; ml++) {
        bool any = false;
        for (unsigned c = 0; c < 8; c++) any |= mem[ml * 8 + c].used;
        if (!any) continue;
        unsigned yy = top + line * ch, x0 = mw + 40;
        tc5_sb_printf(&sb, "<text x=\"%u\" y=\"%u\">0x%05x</text>\n", x0, yy + 13, lo + ml * 128);
        for (unsigned c = 0; c < 8; c++) {
          const cell *m = &mem[ml * 8 + c];
          unsigned x = x0 + 60 + c * cw;
          if (m->used)
            tc5_sb_printf(&sb,
                          "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"%s\" "
                          "fill-opacity=\"0.45\" stroke=\"#333\" stroke-width=\"0.5\"/>"
                          "<text x=\"%u\" y=\"%u\">%u:%u</text>\n",
                          x, yy, cw, ch, palette[m->row % 8], x + 4, yy + 13, m->row, m->first);
          else
            tc5_sb_printf(&sb,
                          "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"none\" "
                          "stroke=\"#bbb\" stroke-width=\"0.5\"/>\n",
                          x, yy, cw, ch);
        }
        line++;
      }
    }
    tc5_sb_puts(&sb, "</svg>\n");
  }
  free(addr);
  free(mem);
  return tc5_sb_finish(&sb, buf, cap, needed);
}
