function [solution, nodes] = sudoku_solve(puzzle)
% SUDOKU_SOLVE  Solve a Sudoku given as a square matrix, 0 for a blank (4x4 to 25x25).
%   [solution, nodes] = sudoku_solve(puzzle) returns the filled matrix, or [] when there is no
%   solution, and the number of values placed. Depth-first search: the empty cell with the fewest
%   candidates first, its candidates in ascending order.
  [solution, nodes] = search(puzzle, 0);
end

function [grid, nodes] = search(grid, nodes)
  n = size(grid, 1);
  b = round(sqrt(n));
  empty = find(grid == 0)';
  if isempty(empty)
    return;
  end
  fewest = n + 1;
  for k = empty
    [r, c] = ind2sub([n n], k);
    rows = b * floor((r - 1) / b) + (1:b);
    cols = b * floor((c - 1) / b) + (1:b);
    used = [grid(r, :), grid(:, c)', reshape(grid(rows, cols), 1, [])];
    free = true(1, n);
    free(used(used > 0)) = false;
    if sum(free) < fewest
      fewest = sum(free);
      cell = k;
      candidates = find(free);
      if fewest == 0
        grid = [];
        return;
      end
    end
  end
  for v = candidates
    nodes = nodes + 1;
    grid(cell) = v;
    [solved, nodes] = search(grid, nodes);
    if ~isempty(solved)
      grid = solved;
      return;
    end
  end
  grid = [];
end
