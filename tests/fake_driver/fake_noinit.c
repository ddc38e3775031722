/* A valid shared object that is not a driver: it exports neither cuInit nor
 * nvmlInit_v2. Stands for a libcuda.so.1 / libnvidia-ml.so.1 replaced by some other
 * library (a wrong symlink, a half-finished upgrade). */
int fake_noinit_marker(void) { return 42; }
