function tell_answer(solution, nodes, usec)
% TELL_ANSWER  One answer line of the solver protocol (docs/reference/protocol.md): the solution's symbols
% row by row (or unsat), with its counters, sent at once.
  symbols = '123456789ABCDEFGHIJKLMNOP';
  if isempty(solution)
    answer = 'unsat';
  else
    answer = symbols(reshape(solution', 1, []));
  end
  printf('%s nodes=%d usec=%d\n', answer, nodes, usec);
  fflush(stdout);  % the answer must leave now: compare.py is waiting for it
end
