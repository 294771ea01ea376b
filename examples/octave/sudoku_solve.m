function [solution, nodes] = sudoku_solve(puzzle, houses)
% SUDOKU_SOLVE  Solve a Sudoku given as a square matrix, 0 for a blank (4x4 to 25x25).
%   [solution, nodes] = sudoku_solve(puzzle) returns the filled matrix, or [] when there is no
%   solution, and the number of values placed. Depth-first search: the empty cell with the fewest
%   candidates first, its candidates in ascending order. The choices made so far are kept on a stack
%   of our own, not Octave's call stack: a 25x25 grid can be 600 choices deep, past its recursion limit.
%   [solution, nodes] = sudoku_solve(puzzle, houses) solves a puzzle of the Sudoku family: HOUSES holds
%   one house a row, the linear indices (column by column, as MATLAB counts) of the n cells that take
%   every value once: its rows, columns and regions, and any diagonal, extra region or disjoint group
%   (fpuzzles_houses.m reads them from f-puzzles JSON). Without it, the houses of classic Sudoku.
  grid = puzzle;
  nodes = 0;
  n = size(grid, 1);
  if nargin < 2
    houses = classic_houses(n);
  end
  peers = cell(1, n * n);         % peers{k}: the other cells of cell k's houses
  for k = 1:n * n
    [in, ~] = find(houses == k);
    others = unique(houses(in, :));
    peers{k} = others(others ~= k)';
  end
  cells = zeros(1, n * n);        % cells(d): the cell chosen at depth d
  choices = cell(1, n * n);       % choices{d}: its candidates when it was chosen
  tried = zeros(1, n * n);        % tried(d): how many of them were placed so far
  depth = 0;
  while true
    [pick, candidates] = fewest(grid, n, peers);
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

function houses = classic_houses(n)
% Classic Sudoku's houses, one a row: its rows, its columns and its square boxes.
  b = round(sqrt(n));
  houses = zeros(3 * n, n);
  for i = 1:n
    houses(i, :) = sub2ind([n n], repmat(i, 1, n), 1:n);
    houses(n + i, :) = sub2ind([n n], 1:n, repmat(i, 1, n));
    [r, c] = ndgrid(b * floor((i - 1) / b) + (1:b), b * mod(i - 1, b) + (1:b));
    houses(2 * n + i, :) = sub2ind([n n], r(:)', c(:)');
  end
end

function [pick, candidates] = fewest(grid, n, peers)
% The empty cell with the fewest candidates (the first such in column order) and its candidates;
% pick 0 when the grid is full, candidates empty when a cell has none.
  pick = 0;
  candidates = [];
  least = n + 1;
  for k = find(grid == 0)'
    used = grid(peers{k});
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
