// The kernel's transport: xeus's ZeroMQ server, with each request's content checked before
// xeus dispatches it (Note [Malformed requests]).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <xeus/xeus_context.hpp>
#include <xeus/xkernel_configuration.hpp>
#include <xeus/xserver.hpp>

namespace tessel::kernel {

/// What is wrong with a request of type `msgType` whose content is `content` (a field missing or
/// of the wrong JSON type, an unknown type), or nullopt when xeus can take it.
std::optional<std::string> requestProblem(const std::string& msgType,
                                          const nlohmann::json& content);

/// xeus::make_xserver_zmq's server wrapped in the check (a server_builder for xeus::xkernel).
std::unique_ptr<xeus::xserver> makeCheckedServer(xeus::xcontext& context,
                                                 const xeus::xconfiguration& config,
                                                 nlohmann::json::error_handler_t eh);

}  // namespace tessel::kernel
