// Device: where a tensor's storage lives (backends.md, "Devices and backends").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tessel::backends {

enum class Device : uint8_t { Cpu, Vulkan, Tpu };

/// The name the language uses: "cpu", "vulkan", "tpu".
std::string_view deviceName(Device device);
/// Parses a device name; nullopt when it names no device.
std::optional<Device> deviceFromName(std::string_view name);

}  // namespace tessel::backends
