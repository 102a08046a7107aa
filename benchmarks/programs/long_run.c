/* Every run from the start iterates 4999 times: bounded model checking from
   the start finds no terminating trace quickly, sampling from any header
   state does. Ranking function (i - j + 1)/2 or similar. */
int main() {
    int i = 10000;
    int j = 1;
    while (i - j >= 1) {
        i--;
        j++;
    }
    return 0;
}
