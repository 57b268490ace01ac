#!/bin/bash
echo "sleeping forever on $LAB_HOST"; while :; do sleep 1000; done
