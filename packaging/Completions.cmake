# cmake -DCLI=... -DSERVER=... -DOUTPUT=... -P Completions.cmake
# Writes the bash and zsh completion scripts as the programs print them:
# OUTPUT/nqueens.bash and OUTPUT/_nqueens (`nqueens completion bash|zsh`),
# OUTPUT/nqueens-server.bash and OUTPUT/_nqueens-server
# (`nqueens-server --completion bash|zsh`).
foreach(shell_file_command
    "bash;nqueens.bash;${CLI};completion" "zsh;_nqueens;${CLI};completion"
    "bash;nqueens-server.bash;${SERVER};--completion"
    "zsh;_nqueens-server;${SERVER};--completion")
  list(GET shell_file_command 0 shell)
  list(GET shell_file_command 1 file)
  list(GET shell_file_command 2 program)
  list(GET shell_file_command 3 how)
  execute_process(COMMAND ${program} ${how} ${shell} OUTPUT_FILE ${OUTPUT}/${file}
    RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "${program} ${how} ${shell} failed")
  endif()
endforeach()
