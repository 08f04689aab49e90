// Built only to be linked (reference/CMakeLists.txt): every object of
// ssp_core and ssp_memory, with no database client on the link line. A rule
// or the memory backend that calls SQLite or libpq fails this link, so the
// layering is checked by every build, not by review.
int main() { return 0; }
