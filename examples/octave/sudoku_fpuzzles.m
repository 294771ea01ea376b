% SUDOKU_FPUZZLES  The solver protocol's streaming mode with f-puzzles input (docs/reference/protocol.md):
% one puzzle of the Sudoku family a line on standard input, as f-puzzles JSON (fpuzzles_houses.m reads
% it); one answer a line out, the solution's symbols row by row, with its counters; `unknown` for a puzzle
% with a rule it does not read (a Killer's cages), rather than an answer to another puzzle.
%   octave-cli -q --no-init-file --path examples/octave --eval 'sudoku_fpuzzles; exit'
[line, ok] = stdin_line();
while ok
  [puzzle, houses, unread] = fpuzzles_houses(line);
  if isempty(unread)
    tic;
    [solution, nodes] = sudoku_solve(puzzle, houses);
    tell_answer(solution, nodes, round(toc * 1e6));
  else
    printf('unknown\n');
    fflush(stdout);
  end
  [line, ok] = stdin_line();
end
