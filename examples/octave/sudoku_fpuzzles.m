% SUDOKU_FPUZZLES  The solver protocol's streaming mode with f-puzzles input (docs/reference/protocol.md):
% one puzzle of the Sudoku family a line on standard input, as f-puzzles JSON (fpuzzles_houses.m reads
% it); one answer a line out, the solution's symbols row by row, with its counters.
%   octave-cli -q --no-init-file --path examples/octave --eval 'sudoku_fpuzzles; exit'
[line, ok] = stdin_line();
while ok
  [puzzle, houses] = fpuzzles_houses(line);
  tic;
  [solution, nodes] = sudoku_solve(puzzle, houses);
  tell_answer(solution, nodes, round(toc * 1e6));
  [line, ok] = stdin_line();
end
