function sudoku_once(file)
% SUDOKU_ONCE  The solver protocol's once mode around sudoku_solve: the puzzle is the matrix in FILE
% (MATLAB's load form, 0 for a blank); the answer goes to standard output, as a matrix.
%   octave-cli -q --no-init-file --path examples/octave --eval "sudoku_once('puzzle.txt')"
  [solution, nodes] = sudoku_solve(load(file));
  if isempty(solution)
    fprintf('unsat nodes=%d\n', nodes);
  else
    fprintf('%s\n', strtrim(sprintf([repmat('%d ', 1, size(solution, 2)) '\n'], solution')));
    fprintf('nodes=%d\n', nodes);
  end
end
