// expected: terminating
// A program started by a shell (or by execve on Linux since 5.18) has its
// own name in argv[0]: argc is at least 1.
int main(int argc, char **argv) {
    while (argc == 0) {
    }
    return argv[argc] != 0;
}
