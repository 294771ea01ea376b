% SUDOKU_STREAM  The solver protocol's streaming mode around sudoku_solve (docs/reference/protocol.md):
% one puzzle a line on standard input, one answer a line out, with its counters.
%   octave-cli -q --no-init-file --path examples/octave --eval 'sudoku_stream; exit'
symbols = '123456789ABCDEFGHIJKLMNOP';
[line, ok] = stdin_line();
while ok
  line = strtrim(line);
  n = round(sqrt(numel(line)));
  [found, values] = ismember(upper(line), symbols);  % '.' and '0' are not symbols: blanks
  values(~found) = 0;
  tic;
  [solution, nodes] = sudoku_solve(reshape(values, n, n)');  % the line is row by row
  tell_answer(solution, nodes, round(toc * 1e6));
  [line, ok] = stdin_line();
end
