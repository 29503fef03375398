# Empty compiler generated dependencies file for sinew_static.
# This may be replaced when dependencies are built.
