function [line, ok] = stdin_line()
% STDIN_LINE  The next line of standard input, without its newline; ok is false at the end of the input.
% Read byte by byte: fgetl(stdin) waits for a full buffer, and compare.py sends one puzzle and waits.
  line = '';
  while true
    [ch, count] = fread(stdin, 1, 'char=>char');
    if count == 0
      ok = false;
      return;
    elseif ch == "\n"
      ok = true;
      return;
    end
    line(end + 1) = ch;
  end
end
