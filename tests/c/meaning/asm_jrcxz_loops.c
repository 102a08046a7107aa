// expected: nonterminating
// class 2: a jump mnemonic the old pattern missed
int main(void) { __asm__ volatile("mov $0, %%rcx\n1: jrcxz 1b" ::: "rcx"); return 0; }
