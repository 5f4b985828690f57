#!/bin/sh
# Runs one example script on one device (TESSEL_DEVICE), shortened by the variables the test
# sets. Exit 77 (ctest's skip code here) when the device is not on this machine.
# usage: run_example.sh TESSEL SCRIPT DEVICE
set -e
tessel=$1 script=$2 device=$3
probe=$(mktemp)
trap 'rm -f "$probe"' EXIT
echo 'print("vulkan" in [d["device"] for d in devices()])' > "$probe"
if [ "$device" = vulkan ] && [ "$(TESSEL_DEVICE=cpu "$tessel" "$probe")" != true ]; then
  echo "skip: no Vulkan device here (install mesa-vulkan-drivers for lavapipe)"
  exit 77
fi
TESSEL_DEVICE=$device exec "$tessel" "$script"
