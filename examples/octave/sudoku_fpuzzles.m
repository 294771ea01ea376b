% SUDOKU_FPUZZLES  The solver protocol's streaming mode with f-puzzles input (docs/reference/protocol.md):
% one puzzle of the Sudoku family a line on standard input, as f-puzzles JSON (fpuzzles_houses.m reads
% it); one answer a line out, the solution's symbols row by row, with its counters.
%   octave-cli -q --no-init-file --path examples/octave --eval 'sudoku_fpuzzles; exit'
symbols = '123456789ABCDEFGHIJKLMNOP';
line = '';
while true
  [ch, count] = fread(stdin, 1, 'char=>char');  % byte by byte: fgetl(stdin) waits for a full buffer
  if count == 0
    break;
  elseif ch ~= "\n"
    line(end + 1) = ch;
    continue;
  end
  [puzzle, houses] = fpuzzles_houses(line);
  tic;
  [solution, nodes] = sudoku_solve(puzzle, houses);
  usec = round(toc * 1e6);
  if isempty(solution)
    answer = 'unsat';
  else
    answer = symbols(reshape(solution', 1, []));
  end
  printf('%s nodes=%d usec=%d\n', answer, nodes, usec);
  fflush(stdout);  % the answer must leave now: compare.py is waiting for it
  line = '';
end
