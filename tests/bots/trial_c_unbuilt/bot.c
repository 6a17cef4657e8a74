/* Never built on purpose: the checker must suggest building it (cc -O2 -o bot bot.c). */
int main(void) { return 0; }
