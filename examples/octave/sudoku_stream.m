% SUDOKU_STREAM  The solver protocol's streaming mode around sudoku_solve (docs/reference/protocol.md):
% one puzzle a line on standard input, one answer a line out, with its counters.
%   octave-cli -q --no-init-file --path examples/octave --eval 'sudoku_stream; exit'
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
  line = strtrim(line);
  n = round(sqrt(numel(line)));
  [found, values] = ismember(upper(line), symbols);  % '.' and '0' are not symbols: blanks
  values(~found) = 0;
  tic;
  [solution, nodes] = sudoku_solve(reshape(values, n, n)');  % the line is row by row
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
