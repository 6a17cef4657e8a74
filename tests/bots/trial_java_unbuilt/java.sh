# What `java -cp . Bot` writes when Bot.class is not in the folder (javac was never run).
echo "Error: Could not find or load main class Bot" >&2
echo "Caused by: java.lang.ClassNotFoundException: Bot" >&2
exit 1
