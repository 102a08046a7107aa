/* Character constants and literals as gcc reads them: multi-character
   constants ('ab' is 0x6162), universal character names in constants
   (UTF-8 bytes), literals (sizeof "\u00e9" is 3, L"\u00e9x" 12 bytes) and
   identifiers. Every condition holds, so the loop is never entered. */
int caf\u00e9 = 3;

int main(void) {
  int a = 'ab';
  int b = 'abcde';
  int c = '\u00e9';
  int n = sizeof("\u00e9");
  int w = sizeof(L"\u00e9x");
  while (a != 24930 || b != 1650680933 || c != 50089 || n != 3 || w != 12 || caf\u00e9 != 3) {
  }
  return 0;
}
