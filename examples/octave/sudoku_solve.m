function [solution, nodes] = sudoku_solve(puzzle)
% SUDOKU_SOLVE  Solve a Sudoku given as a square matrix, 0 for a blank (4x4 to 25x25).
%   [solution, nodes] = sudoku_solve(puzzle) returns the filled matrix, or [] when there is no
%   solution, and the number of values placed. Depth-first search: the empty cell with the fewest
%   candidates first, its candidates in ascending order. The choices made so far are kept on a stack
%   of our own, not Octave's call stack: a 25x25 grid can be 600 choices deep, past its recursion limit.
  grid = puzzle;
  nodes = 0;
  n = size(grid, 1);
  b = round(sqrt(n));
  cells = zeros(1, n * n);        % cells(d): the cell chosen at depth d
  choices = cell(1, n * n);       % choices{d}: its candidates when it was chosen
  tried = zeros(1, n * n);        % tried(d): how many of them were placed so far
  depth = 0;
  while true
    [pick, candidates] = fewest(grid, n, b);
    if pick == 0                  % no empty cell left: solved
      solution = grid;
      return;
    end
    if ~isempty(candidates)       % a new choice; an empty cell without candidates is a dead end
      depth = depth + 1;
      cells(depth) = pick;
      choices{depth} = candidates;
      tried(depth) = 0;
    end
    while depth > 0 && tried(depth) == numel(choices{depth})
      grid(cells(depth)) = 0;     % every value of this choice failed: undo it, back to the one before
      depth = depth - 1;
    end
    if depth == 0
      solution = [];
      return;
    end
    tried(depth) = tried(depth) + 1;
    grid(cells(depth)) = choices{depth}(tried(depth));
    nodes = nodes + 1;
  end
end

function [pick, candidates] = fewest(grid, n, b)
% The empty cell with the fewest candidates (the first such in column order) and its candidates;
% pick 0 when the grid is full, candidates empty when a cell has none.
  pick = 0;
  candidates = [];
  least = n + 1;
  for k = find(grid == 0)'
    [r, c] = ind2sub([n n], k);
    rows = b * floor((r - 1) / b) + (1:b);
    cols = b * floor((c - 1) / b) + (1:b);
    used = [grid(r, :), grid(:, c)', reshape(grid(rows, cols), 1, [])];
    free = true(1, n);
    free(used(used > 0)) = false;
    if sum(free) < least
      least = sum(free);
      pick = k;
      candidates = find(free);
      if least == 0
        return;
      end
    end
  end
end
