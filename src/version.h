/* version.h - which lockstep this is: the release and, for a build from a
 * git checkout, the commit (git describe at build time, "+" when the tree
 * had changes). Every JSON document carries both (ls_json_provenance). */
#ifndef LOCKSTEP_VERSION_H
#define LOCKSTEP_VERSION_H

extern const char ls_version[]; /* meson.build's project version, e.g. "0.1.0" */
extern const char ls_commit[];  /* e.g. "74bdee8d1c2a"; "" when not built from git */

#endif
