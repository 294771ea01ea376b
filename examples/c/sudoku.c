/* Plain backtracking, speaking sudoku-search's solver protocol 1 (docs/reference/protocol.md).

   Streaming mode: one puzzle a line on standard input, in either input form:
     - a line of symbols (`input=line`, classic Sudoku 4x4 to 25x25: 1-9 then A-P, '.' or '0' for a blank);
     - a line of f-puzzles JSON (`input=fpuzzles`): `size` (4 to 25), `grid` (rows of cells with `value`,
       `given`, `region`: a Jigsaw's regions, else the side's boxes as f-puzzles draws them, 6x6 in 2x3), and
       the houses `diagonal+`, `diagonal-`, `extraregion` (cells named R1C1 ...), `disjointgroups`.
   For each, one line out: the solution's symbols row by row, or "unsat" (or "unknown" for a line it cannot
   read), then the counters
       nodes       values placed, re-placements after a backtrack included
       guesses     placements made while the cell had another untried candidate
       backtracks  placements undone because they led nowhere
       usec        this program's own time for the puzzle, in microseconds (reading and writing excluded)
   Empty cells are filled in row-major order, values ascending: the first that breaks no house is placed.

       make && echo 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 | ./sudoku
*/
#define _GNU_SOURCE /* getline */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SIDE 25
#define MAX_HOUSES (4 * MAX_SIDE + 64) /* rows, columns, regions, disjoint groups, diagonals, extra regions */
#define MAX_OF_CELL 16                 /* houses a cell lies in, at most */
static const char SYMBOLS[] = "123456789ABCDEFGHIJKLMNOP";

static int side, cells, houses;
static int grid[MAX_SIDE * MAX_SIDE];
static int region[MAX_SIDE * MAX_SIDE];
static int of_cell[MAX_SIDE * MAX_SIDE][MAX_OF_CELL], of_count[MAX_SIDE * MAX_SIDE];
static uint32_t used[MAX_HOUSES]; /* bit v-1: value v is in the house */
static long long nodes, guesses, backtracks;

/* -- the houses ------------------------------------------------------------------------------------ */
static int add_to(int house, int cell) {
    if (of_count[cell] == MAX_OF_CELL) return 0;
    of_cell[cell][of_count[cell]++] = house;
    return 1;
}

/* Rows, columns and regions (each cell's region in region[]), before any other house. */
static void start_houses(void) {
    memset(of_count, 0, sizeof of_count);
    memset(used, 0, sizeof used);
    for (int cell = 0; cell < cells; cell++) {
        add_to(cell / side, cell);
        add_to(side + cell % side, cell);
        add_to(2 * side + region[cell], cell);
    }
    houses = 3 * side;
}

/* f-puzzles' default boxes: the tallest shape no taller than wide; 0 when the side has none (a prime). */
static int box_height(int n) {
    int height = 1;
    for (int h = 1; h * h <= n; h++)
        if (n % h == 0) height = h;
    return height > 1 ? height : 0;
}

static void box_regions(int height) {
    int width = side / height;
    for (int cell = 0; cell < cells; cell++)
        region[cell] = (cell / side / height) * (side / width) + cell % side / width;
}

static uint32_t free_values(int cell) {
    uint32_t taken = 0;
    for (int k = 0; k < of_count[cell]; k++) taken |= used[of_cell[cell][k]];
    return ((1u << side) - 1) & ~taken;
}

static void set(int cell, int value, int on) {
    uint32_t bit = 1u << (value - 1);
    for (int k = 0; k < of_count[cell]; k++) {
        if (on) used[of_cell[cell][k]] |= bit;
        else used[of_cell[cell][k]] &= ~bit;
    }
    grid[cell] = on ? value : 0;
}

/* The givens in grid[] placed in their houses; 0 when two clash. */
static int place_givens(void) {
    for (int cell = 0; cell < cells; cell++) {
        int value = grid[cell];
        if (!value) continue;
        if (!(free_values(cell) & (1u << (value - 1)))) return 0;
        set(cell, value, 1);
    }
    return 1;
}

static int solve(int cell) {
    while (cell < cells && grid[cell]) cell++;
    if (cell == cells) return 1;
    uint32_t free = free_values(cell);
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

/* -- a line of symbols ----------------------------------------------------------------------------- */
static int value_of(char ch) {
    if (ch == '.' || ch == '0') return 0;
    const char *at = strchr(SYMBOLS, ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch);
    return at && ch ? (int)(at - SYMBOLS) + 1 : -1;
}

/* The classic puzzle of one line: 1; 0 when it is not one; -1 when its givens clash. */
static int load_line(const char *line, size_t length) {
    int box;
    for (box = 2; box <= 5 && (size_t)(box * box * box * box) != length; box++) {}
    if (box > 5) return 0;
    side = box * box;
    cells = side * side;
    box_regions(box);
    start_houses();
    for (int cell = 0; cell < cells; cell++) {
        int value = value_of(line[cell]);
        if (value < 0 || value > side) return 0;
        grid[cell] = value;
    }
    return place_givens() ? 1 : -1;
}

/* -- a line of f-puzzles JSON: a small parser into a tree of nodes ------------------------------------ */
enum { J_NULL, J_FALSE, J_TRUE, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT };
typedef struct {
    int type;
    double number;
    const char *text; /* a string's characters (escapes kept as they are), or an object member's key */
    int length, key_length;
    const char *key;
    int child, next; /* first child and next sibling, -1 for none */
} Node;

#define MAX_NODES 200000
static Node *tree;
static int used_nodes;
static const char *at;

static void blank(void) { while (*at == ' ' || *at == '\t' || *at == '\r' || *at == '\n') at++; }

static int parse_value(void);

static int new_node(int type) {
    if (used_nodes == MAX_NODES) return -1;
    Node *node = &tree[used_nodes];
    memset(node, 0, sizeof *node);
    node->type = type;
    node->child = node->next = -1;
    return used_nodes++;
}

static int parse_string(const char **text, int *length) {
    if (*at != '"') return 0;
    *text = ++at;
    while (*at && *at != '"') at += *at == '\\' && at[1] ? 2 : 1;
    if (*at != '"') return 0;
    *length = (int)(at++ - *text);
    return 1;
}

static int parse_members(int parent, char close, int object) {
    at++; /* '[' or '{' */
    blank();
    int last = -1;
    if (*at == close) { at++; return parent; }
    for (;;) {
        const char *key = NULL;
        int key_length = 0;
        if (object) {
            blank();
            if (!parse_string(&key, &key_length)) return -1;
            blank();
            if (*at++ != ':') return -1;
        }
        int child = parse_value();
        if (child < 0) return -1;
        tree[child].key = key;
        tree[child].key_length = key_length;
        if (last < 0) tree[parent].child = child;
        else tree[last].next = child;
        last = child;
        blank();
        if (*at == ',') { at++; continue; }
        if (*at++ != close) return -1;
        return parent;
    }
}

static int parse_value(void) {
    blank();
    int node;
    if (*at == '{') return (node = new_node(J_OBJECT)) < 0 ? -1 : parse_members(node, '}', 1);
    if (*at == '[') return (node = new_node(J_ARRAY)) < 0 ? -1 : parse_members(node, ']', 0);
    if (*at == '"') {
        if ((node = new_node(J_STRING)) < 0) return -1;
        return parse_string(&tree[node].text, &tree[node].length) ? node : -1;
    }
    static const struct { const char *word; int type; } WORDS[] = {{"true", J_TRUE}, {"false", J_FALSE},
                                                                   {"null", J_NULL}};
    for (int k = 0; k < 3; k++) {
        size_t length = strlen(WORDS[k].word);
        if (!strncmp(at, WORDS[k].word, length)) { at += length; return new_node(WORDS[k].type); }
    }
    char *end;
    double number = strtod(at, &end);
    if (end == at || (node = new_node(J_NUMBER)) < 0) return -1;
    tree[node].number = number;
    at = end;
    return node;
}

static int member(int object, const char *key) {
    for (int child = object >= 0 ? tree[object].child : -1; child >= 0; child = tree[child].next)
        if (tree[child].key_length == (int)strlen(key) && !strncmp(tree[child].key, key, strlen(key))) return child;
    return -1;
}

static int item(int array, int index) {
    int child = array >= 0 && tree[array].type == J_ARRAY ? tree[array].child : -1;
    while (child >= 0 && index--) child = tree[child].next;
    return child;
}

static int is_true(int node) { return node >= 0 && tree[node].type == J_TRUE; }

static int whole(int node, int low, int high) { /* a whole number from low to high, else -1 */
    if (node < 0 || tree[node].type != J_NUMBER) return -1;
    double v = tree[node].number;
    return v == (int)v && v >= low && v <= high ? (int)v : -1;
}

/* One house more, of the cells given; 0 when it cannot be one. */
static int add_house(const int *members, int count) {
    if (count != side || houses == MAX_HOUSES) return 0;
    for (int k = 0; k < count; k++)
        if (!add_to(houses, members[k])) return 0;
    houses++;
    return 1;
}

/* The puzzle of one line of f-puzzles JSON: 1; 0 when it is not one this program reads; -1 when its givens
   clash. A field it does not know (a constraint it would ignore) makes it unreadable. */
static int load_json(const char *line) {
    static const char *KNOWN[] = {"size", "grid", "diagonal+", "diagonal-", "extraregion", "disjointgroups",
                                  "title", "author", "ruleset", "solution"};
    used_nodes = 0;
    at = line;
    int root = parse_value();
    if (root < 0 || tree[root].type != J_OBJECT) return 0;
    for (int child = tree[root].child; child >= 0; child = tree[child].next) {
        int known = 0;
        for (size_t k = 0; k < sizeof KNOWN / sizeof *KNOWN; k++)
            known |= tree[child].key_length == (int)strlen(KNOWN[k]) &&
                     !strncmp(tree[child].key, KNOWN[k], strlen(KNOWN[k]));
        if (!known) return 0;
    }
    side = whole(member(root, "size"), 4, MAX_SIDE);
    if (side < 0) return 0;
    cells = side * side;
    int rows = member(root, "grid"), given_regions = 0, height = box_height(side);
    for (int cell = 0; cell < cells; cell++) {
        int here = item(item(rows, cell / side), cell % side);
        if (here < 0 || tree[here].type != J_OBJECT) return 0;
        int value = whole(member(here, "value"), 1, side);
        grid[cell] = is_true(member(here, "given")) && value > 0 ? value : 0;
        int own = member(here, "region");
        region[cell] = own >= 0 ? whole(own, 0, side - 1) : -1;
        if (own >= 0 && region[cell] < 0) return 0;
        given_regions += own >= 0;
    }
    if (given_regions < cells) { /* the side's boxes, where a cell gives no region */
        if (!height) return 0;
        int mine[MAX_SIDE * MAX_SIDE];
        memcpy(mine, region, sizeof mine);
        box_regions(height);
        for (int cell = 0; cell < cells; cell++)
            if (mine[cell] >= 0) region[cell] = mine[cell];
    }
    start_houses();
    int members[MAX_SIDE * MAX_SIDE];
    for (int sign = 0; sign < 2; sign++) { /* diagonal+: bottom left to top right; diagonal-: top left down */
        if (!is_true(member(root, sign ? "diagonal-" : "diagonal+"))) continue;
        for (int k = 0; k < side; k++) members[k] = sign ? k * side + k : (side - 1 - k) * side + k;
        if (!add_house(members, side)) return 0;
    }
    int extra = member(root, "extraregion");
    for (int child = extra >= 0 ? tree[extra].child : -1; child >= 0; child = tree[child].next) {
        int count = 0;
        for (int name = item(member(child, "cells"), 0); name >= 0; name = tree[name].next) {
            int r, c;
            char tail;
            if (tree[name].type != J_STRING || count == cells ||
                sscanf(tree[name].text, "%*1[Rr]%d%*1[Cc]%d%c", &r, &c, &tail) != 3 || tail != '"' ||
                r < 1 || r > side || c < 1 || c > side) return 0;
            members[count++] = (r - 1) * side + c - 1;
        }
        if (!add_house(members, count)) return 0;
    }
    if (is_true(member(root, "disjointgroups"))) { /* the cells at the same place in each box */
        if (!height) return 0;
        int width = side / height;
        for (int place = 0; place < side; place++) {
            int count = 0;
            for (int cell = 0; cell < cells; cell++)
                if ((cell / side) % height * width + cell % side % width == place) members[count++] = cell;
            if (!add_house(members, count)) return 0;
        }
    }
    return place_givens() ? 1 : -1;
}

int main(void) {
    char *line = NULL;
    size_t capacity = 0;
    ssize_t read;
    tree = malloc(MAX_NODES * sizeof *tree);
    if (!tree) return 1;
    while ((read = getline(&line, &capacity, stdin)) != -1) {
        size_t length = strcspn(line, "\r\n");
        line[length] = '\0';
        nodes = guesses = backtracks = 0;
        int json = line[strspn(line, " \t")] == '{';
        int loaded = json ? load_json(line) : load_line(line, length);
        struct timespec start, end;
        clock_gettime(CLOCK_MONOTONIC, &start);
        int solved = loaded > 0 && solve(0);
        clock_gettime(CLOCK_MONOTONIC, &end);
        long long usec = (end.tv_sec - start.tv_sec) * 1000000LL + (end.tv_nsec - start.tv_nsec) / 1000;
        if (solved) {
            for (int cell = 0; cell < cells; cell++) putchar(SYMBOLS[grid[cell] - 1]);
        } else {
            fputs(loaded ? "unsat" : "unknown", stdout);
        }
        printf(" nodes=%lld guesses=%lld backtracks=%lld usec=%lld\n", nodes, guesses, backtracks, usec);
        fflush(stdout); /* the answer must leave now: compare.py is waiting for it */
    }
    free(line);
    free(tree);
    return 0;
}
