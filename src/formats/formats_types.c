/* tc5 — element type names and sizes (the type list of 9.7.16.10). */
#include <ctype.h>
#include <string.h>

#include "spec/spec_tables.h"
#include "tc5/formats.h"

const char *tc5_type_name(tc5_type t) {
  const tc5_type_info *ti = tc5_spec_type(t);
  return ti ? ti->name : "none";
}

tc5_status tc5_type_parse(const char *name, tc5_type *t) {
  if (!name || !t) return TC5_EINVAL;
  if (*name == '.') name++;
  char low[16];
  size_t n = strlen(name);
  if (n == 0 || n >= sizeof low) return TC5_EINVAL;
  for (size_t i = 0; i <= n; i++) low[i] = (char)tolower((unsigned char)name[i]);
  for (int i = TC5_TYPE_NONE + 1; i < TC5_TYPE_COUNT; i++) {
    if (!strcmp(low, tc5_spec_type((tc5_type)i)->name)) {
      *t = (tc5_type)i;
      return TC5_OK;
    }
  }
  return TC5_EINVAL;
}

unsigned tc5_type_bits(tc5_type t) {
  const tc5_type_info *ti = tc5_spec_type(t);
  return ti ? ti->bits : 0;
}

bool tc5_type_is_float(tc5_type t) {
  const tc5_type_info *ti = tc5_spec_type(t);
  return ti && ti->is_float;
}
