function [puzzle, houses, unread] = fpuzzles_houses(text)
% FPUZZLES_HOUSES  A puzzle of the Sudoku family from one line of f-puzzles JSON: its givens as a square
% matrix (0 for a blank) and its houses as sudoku_solve takes them, one a row (linear indices of n cells):
% rows, columns, regions (each cell's `region`, else the side's boxes as f-puzzles draws them, 6x6 in
% boxes 2 rows tall and 3 wide), then `diagonal+`, `diagonal-`, each `extraregion`, the `disjointgroups`.
% UNREAD names the puzzle's rules this function does not read (a Killer's `killercage`, ...): a solver that
% ignored one would solve another puzzle, so the caller answers `unknown` instead.
  % jsondecode makes both diagonal+ and diagonal- the field diagonal_: named apart first
  text = strrep(strrep(text, '"diagonal+"', '"diagonal_plus"'), '"diagonal-"', '"diagonal_minus"');
  data = jsondecode(text);
  read = {'size', 'grid', 'title', 'author', 'ruleset', 'solution', 'diagonal_plus', 'diagonal_minus', ...
          'extraregion', 'disjointgroups'};
  unread = setdiff(fieldnames(data), read);
  unread = unread(cellfun(@(name) ~isempty(data.(name)) && ~isequal(data.(name), false), unread));
  n = data.size;
  puzzle = zeros(n);
  region = -ones(n);
  for r = 1:n
    for c = 1:n
      here = grid_cell(data.grid, r, c, n);
      if isfield(here, 'given') && isequal(here.given, true) && isfield(here, 'value') && ~isempty(here.value)
        puzzle(r, c) = here.value;
      end
      if isfield(here, 'region') && ~isempty(here.region)
        region(r, c) = here.region;
      end
    end
  end
  h = max(find(mod(n, 1:floor(sqrt(n))) == 0));  % the boxes: the tallest shape no taller than wide
  w = n / h;
  [rows, cols] = ndgrid(1:n, 1:n);
  boxes = floor((rows - 1) / h) * (n / w) + floor((cols - 1) / w);
  region(region < 0) = boxes(region < 0);
  houses = zeros(3 * n, n);
  for i = 1:n
    houses(i, :) = sub2ind([n n], repmat(i, 1, n), 1:n);
    houses(n + i, :) = sub2ind([n n], 1:n, repmat(i, 1, n));
    houses(2 * n + i, :) = find(region == i - 1)';
  end
  if isfield(data, 'diagonal_plus') && isequal(data.diagonal_plus, true)   % bottom left to top right
    houses(end + 1, :) = sub2ind([n n], n:-1:1, 1:n);
  end
  if isfield(data, 'diagonal_minus') && isequal(data.diagonal_minus, true)  % top left to bottom right
    houses(end + 1, :) = sub2ind([n n], 1:n, 1:n);
  end
  if isfield(data, 'extraregion')
    for e = 1:numel(data.extraregion)
      names = data.extraregion(e).cells;
      at = cellfun(@(name) sscanf(upper(name), 'R%dC%d')', names, 'UniformOutput', false);
      at = vertcat(at{:});
      houses(end + 1, :) = sub2ind([n n], at(:, 1)', at(:, 2)');
    end
  end
  if isfield(data, 'disjointgroups') && isequal(data.disjointgroups, true)  % the same place in each box
    place = mod(rows - 1, h) * w + mod(cols - 1, w);
    for i = 0:n - 1
      houses(end + 1, :) = find(place == i)';
    end
  end
end

function here = grid_cell(grid, r, c, n)
% The cell at row r, column c of an f-puzzles grid as jsondecode returns it: a matrix of structs when its
% cells have the same fields, else rows (or cells) in cell arrays.
  if isstruct(grid) && isequal(size(grid), [n n])
    here = grid(r, c);
    return;
  end
  if iscell(grid), row = grid{r}; else, row = grid(r, :); end
  if iscell(row), here = row{c}; else, here = row(c); end
end
