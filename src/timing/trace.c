/* tc5 timing model — the Chrome trace-event JSON (docs/timing.md, "The
 * trace"): one process per CTA run in detail, a thread per warp and per
 * asynchronous unit, "X" spans (µs), flow events ("s"/"f") from the
 * operation that completed an mbarrier phase to the wait it released. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "timing/timing_impl.h"

#define TM_EVENTS_MAX (1u << 22) /* per CTA: a trace stays openable */

void tm_ev_add(tm_evbuf *b, const tm_event *e) {
  if (b->n == b->cap) {
    if (b->cap >= TM_EVENTS_MAX) {
      b->full = true;
      return;
    }
    size_t c = b->cap ? 2 * b->cap : 1024;
    tm_event *q = realloc(b->e, c * sizeof *q);
    if (!q) {
      b->full = true;
      return;
    }
    b->e = q, b->cap = c;
  }
  b->e[b->n++] = *e;
}

/* a JSON string's body */
static void json_str(FILE *f, const char *s) {
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
}

static const char *unit_track(uint32_t tid) {
  switch (tid) {
  case TM_TID_TMA: return "TMA";
  case TM_TID_MMA: return "tensor core (tcgen05.mma / wgmma)";
  case TM_TID_TMEM: return "Tensor Memory (tcgen05.ld/st/cp)";
  case TM_TID_SFU: return "SFU";
  default: return "cp.async";
  }
}

tc5_status tm_trace_write(const tm_launch *l, const double *start, tc5_diag *diag) {
  FILE *f = fopen(l->s.trace, "w");
  if (!f) return tc5_diag_add(diag, TC5_EIO, "timing_trace", 0, "timing: cannot write the trace '%.200s'", l->s.trace);
  double us = 1.0 / (l->p.clock_ghz * 1e3); /* µs per cycle */
  fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"gpu\":\"%s\",\"clock_ghz\":%g,\"truncated\":%s},\"traceEvents\":[\n",
          l->p.gpu, l->p.clock_ghz, l->trace_full ? "true" : "false");
  bool first = true;
#define SEP() (first ? (first = false, "") : ",\n")
  for (size_t k = 0; k < l->ntc; k++) {
    const struct tm_trace_cta *c = &l->tc[k];
    uint64_t ri = 0;
    if (l->pick) {
      while (ri + 1 < l->nrun && l->pick[ri] < c->cluster) ri++;
    } else {
      ri = c->cluster;
    }
    double t0 = start[ri];
    unsigned long long pid = (unsigned long long)c->linear;
    fprintf(f, "%s{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%llu,\"tid\":0,\"args\":{\"name\":\"CTA %llu (cluster %llu, rank %u)\"}}",
            SEP(), pid, pid, (unsigned long long)c->cluster, c->rank);
    /* thread names: the warps and units that have events */
    uint32_t seen_w = 0, seen_u = 0;
    for (size_t i = 0; i < c->n; i++) {
      uint32_t tid = c->e[i].tid;
      if (tid < 32 && !(seen_w >> tid & 1)) {
        seen_w |= 1u << tid;
        fprintf(f, "%s{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%llu,\"tid\":%u,\"args\":{\"name\":\"warp %u\"}}", SEP(), pid, tid, tid);
      } else if (tid >= TM_TID_TMA && tid - TM_TID_TMA < 8 && !(seen_u >> (tid - TM_TID_TMA) & 1)) {
        seen_u |= 1u << (tid - TM_TID_TMA);
        fprintf(f, "%s{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%llu,\"tid\":%u,\"args\":{\"name\":\"%s\"}}", SEP(), pid, tid, unit_track(tid));
      }
    }
    for (size_t i = 0; i < c->n; i++) {
      const tm_event *e = &c->e[i];
      double ts = (t0 + e->ts) * us;
      if (e->ph == 'X') {
        fprintf(f, "%s{\"ph\":\"X\",\"name\":\"", SEP());
        json_str(f, e->name);
        fprintf(f, "\",\"pid\":%llu,\"tid\":%u,\"ts\":%.6f,\"dur\":%.6f,\"args\":{\"line\":%u", pid, e->tid, ts, e->dur * us, e->line);
        if (e->tid == TM_TID_TMA) fprintf(f, ",\"bytes\":%u", e->line2);
        fprintf(f, ",\"cycles\":%.1f}}", e->dur);
      } else {
        fprintf(f, "%s{\"ph\":\"%c\",\"name\":\"completes\",\"cat\":\"mbarrier\",\"id\":%llu,\"pid\":%llu,\"tid\":%u,\"ts\":%.6f%s}",
                SEP(), e->ph, (unsigned long long)(pid << 32 | e->id), pid, e->tid, ts, e->ph == 'f' ? ",\"bp\":\"e\"" : "");
      }
    }
  }
#undef SEP
  fprintf(f, "\n]}\n");
  int bad = ferror(f);
  if (fclose(f) || bad) return tc5_diag_add(diag, TC5_EIO, "timing_trace", 0, "timing: writing the trace '%.200s' failed", l->s.trace);
  return TC5_OK;
}
