// expected: terminating
// The third parameter of main: the environment, a NULL-terminated array.
int main(int argc, char *argv[], char *envp[]) {
    int n = 0;
    for (int i = 0; envp[i] != 0; i++)
        n = (n + 1) % 1000;
    return n + (argv[0] != 0);
}
