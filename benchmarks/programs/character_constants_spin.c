/* Character constants and literals as gcc reads them: multi-character
   constants ('ab' is 0x6162), universal character names in constants
   (UTF-8 bytes), literals (sizeof "\u00e9" is 3, L"\u00e9x" 12 bytes) (identifiers with
   them are in character_constants.c). sizeof "\u00e9" is not 2: the loop spins. */
int main(void) {
  int a = 'ab';
  int b = 'abcde';
  int c = '\u00e9';
  int n = sizeof("\u00e9");
  int w = sizeof(L"\u00e9x");
  while (a != 24930 || b != 1650680933 || c != 50089 || n != 2 || w != 12) {
  }
  return 0;
}
