/* Plain backtracking, speaking sudoku-search's solver protocol 1 (docs/reference/protocol.md).

   Streaming mode: one puzzle a line on standard input (4x4 to 25x25: 1-9 then A-P, '.' or '0' for a
   blank); for each, one line out: the solution in the same form, or "unsat", then the counters
       nodes       values placed, re-placements after a backtrack included
       guesses     placements made while the cell had another untried candidate
       backtracks  placements undone because they led nowhere
       usec        this program's own time for the puzzle, in microseconds (reading and writing excluded)
   Empty cells are filled in row-major order, values ascending: the first that breaks no rule is placed.

       make && echo 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 | ./sudoku
*/
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define MAX_SIDE 25
static const char SYMBOLS[] = "123456789ABCDEFGHIJKLMNOP";

static int box, side, cells;
static int grid[MAX_SIDE * MAX_SIDE];
static uint32_t in_row[MAX_SIDE], in_col[MAX_SIDE], in_box[MAX_SIDE]; /* bit v-1: value v is there */
static long long nodes, guesses, backtracks;

static int box_of(int cell) { return (cell / side / box) * box + cell % side / box; }

static void set(int cell, int value, int on) {
    uint32_t bit = 1u << (value - 1);
    int r = cell / side, c = cell % side, b = box_of(cell);
    if (on) { in_row[r] |= bit; in_col[c] |= bit; in_box[b] |= bit; grid[cell] = value; }
    else { in_row[r] &= ~bit; in_col[c] &= ~bit; in_box[b] &= ~bit; grid[cell] = 0; }
}

static int solve(int cell) {
    while (cell < cells && grid[cell]) cell++;
    if (cell == cells) return 1;
    uint32_t full = (1u << side) - 1;
    uint32_t free = full & ~(in_row[cell / side] | in_col[cell % side] | in_box[box_of(cell)]);
    while (free) {
        uint32_t bit = free & -free;
        free ^= bit;
        int value = __builtin_ctz(bit) + 1;
        nodes++;
        if (free) guesses++;
        set(cell, value, 1);
        if (solve(cell + 1)) return 1;
        set(cell, value, 0);
        backtracks++;
    }
    return 0;
}

static int value_of(char ch) {
    if (ch == '.' || ch == '0') return 0;
    const char *at = strchr(SYMBOLS, ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch);
    return at && ch ? (int)(at - SYMBOLS) + 1 : -1;
}

/* The puzzle of one line; 0 when it is not one, or breaks a rule. */
static int load(const char *line, size_t length) {
    for (box = 2; box <= 5 && (size_t)(box * box * box * box) != length; box++) {}
    if (box > 5) return 0;
    side = box * box;
    cells = side * side;
    memset(in_row, 0, sizeof in_row); memset(in_col, 0, sizeof in_col); memset(in_box, 0, sizeof in_box);
    for (int cell = 0; cell < cells; cell++) {
        int value = value_of(line[cell]);
        grid[cell] = 0;
        if (value < 0 || value > side) return 0;
        if (!value) continue;
        uint32_t bit = 1u << (value - 1);
        if ((in_row[cell / side] | in_col[cell % side] | in_box[box_of(cell)]) & bit) return 0;
        set(cell, value, 1);
    }
    return 1;
}

int main(void) {
    static char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        size_t length = strcspn(line, "\r\n");
        nodes = guesses = backtracks = 0;
        struct timespec start, end;
        clock_gettime(CLOCK_MONOTONIC, &start);
        int loaded = load(line, length);
        int solved = loaded && solve(0);
        clock_gettime(CLOCK_MONOTONIC, &end);
        long long usec = (end.tv_sec - start.tv_sec) * 1000000LL + (end.tv_nsec - start.tv_nsec) / 1000;
        if (solved) {
            for (int cell = 0; cell < cells; cell++) putchar(SYMBOLS[grid[cell] - 1]);
        } else {
            fputs(loaded || length == (size_t)cells ? "unsat" : "unknown", stdout);
        }
        printf(" nodes=%lld guesses=%lld backtracks=%lld usec=%lld\n", nodes, guesses, backtracks, usec);
        fflush(stdout); /* the answer must leave now: compare.py is waiting for it */
    }
    return 0;
}
