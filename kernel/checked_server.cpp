// Requests checked before xeus sees them (checked_server.h).
#include "kernel/checked_server.h"

#include <iostream>
#include <xeus/xguid.hpp>
#include <xeus/xmessage.hpp>
#include <xeus/xserver_zmq.hpp>

namespace tessel::kernel {

// Note [Malformed requests]
// The protocol asks a kernel to answer every request, and a malformed one with an error
// rather than a crash. xeus 2.4 reads fields with json::value(), which throws on a field of the
// wrong type (`code: 5`): its dispatcher catches that, logs it and sends nothing, so the
// client waits forever; a message type it does not know is logged and not answered either. So
// the server xeus is given wraps its ZeroMQ server and checks each request's content first:
// one that xeus would choke on is answered here, on the channel it came in on, with a reply
// of status "error" (ename BadRequest or UnknownMessageType, evalue what is wrong), between
// busy and idle on IOPub as any request, and logged on stderr; the rest go on to xeus.
// Frames that cannot be read at all (bad JSON, a wrong or missing signature, no delimiter)
// have no header to answer; the ZeroMQ server already logs them on stderr and goes on, as the
// protocol says (an unsigned message is ignored). comm_open, comm_msg and comm_close are not
// requests and have no replies: a malformed one is logged and dropped.

namespace {

namespace nl = nlohmann;

enum class Kind { String, Int, Bool, Object };

struct Field {
  const char* name;
  Kind kind;
  bool required;
};

struct RequestSpec {
  const char* msgType;
  std::vector<Field> fields;
};

// The content fields of the protocol (version 5.3) that xeus reads, with their JSON types.
const std::vector<RequestSpec>& specs() {
  static const std::vector<RequestSpec> all = {
      {"execute_request",
       {{"code", Kind::String, true},
        {"silent", Kind::Bool, false},
        {"store_history", Kind::Bool, false},
        {"user_expressions", Kind::Object, false},
        {"allow_stdin", Kind::Bool, false},
        {"stop_on_error", Kind::Bool, false}}},
      {"complete_request", {{"code", Kind::String, true}, {"cursor_pos", Kind::Int, true}}},
      {"inspect_request",
       {{"code", Kind::String, true},
        {"cursor_pos", Kind::Int, true},
        {"detail_level", Kind::Int, false}}},
      {"is_complete_request", {{"code", Kind::String, true}}},
      {"history_request",
       {{"output", Kind::Bool, false},
        {"raw", Kind::Bool, false},
        {"hist_access_type", Kind::String, false},
        {"session", Kind::Int, false},
        {"start", Kind::Int, false},
        {"stop", Kind::Int, false},
        {"n", Kind::Int, false},
        {"pattern", Kind::String, false},
        {"unique", Kind::Bool, false}}},
      {"comm_info_request", {{"target_name", Kind::String, false}}},
      {"kernel_info_request", {}},
      {"shutdown_request", {{"restart", Kind::Bool, false}}},
      {"interrupt_request", {}},
      {"debug_request", {}},
      {"comm_open",
       {{"comm_id", Kind::String, true},
        {"target_name", Kind::String, true},
        {"data", Kind::Object, false}}},
      {"comm_msg", {{"comm_id", Kind::String, true}, {"data", Kind::Object, false}}},
      {"comm_close", {{"comm_id", Kind::String, true}, {"data", Kind::Object, false}}},
  };
  return all;
}

// A JSON value for a log line or an evalue: short, and any bytes that are not UTF-8 replaced
// (the default handler would throw on them).
std::string shortDump(const nl::json& v) {
  std::string text = v.dump(-1, ' ', false, nl::json::error_handler_t::replace);
  return text.size() > 80 ? text.substr(0, 77) + "..." : text;
}

bool hasKind(const nl::json& v, Kind kind) {
  switch (kind) {
    case Kind::String:
      return v.is_string();
    case Kind::Int:
      return v.is_number_integer();
    case Kind::Bool:
      return v.is_boolean();
    case Kind::Object:
      return v.is_object();
  }
  return false;
}

const char* kindText(Kind kind) {
  switch (kind) {
    case Kind::String:
      return "a string";
    case Kind::Int:
      return "an integer";
    case Kind::Bool:
      return "a boolean";
    case Kind::Object:
      return "an object";
  }
  return "?";
}

// The reply type of a request: foo_request -> foo_reply (an unknown `foo` -> foo_reply).
std::string replyType(const std::string& msgType) {
  const std::string suffix = "_request";
  if (msgType.size() > suffix.size() && msgType.ends_with(suffix))
    return msgType.substr(0, msgType.size() - suffix.size()) + "_reply";
  return msgType + "_reply";
}

class CheckedServer : public xeus::xserver {
 public:
  explicit CheckedServer(std::unique_ptr<xeus::xserver> inner)
      : inner_(std::move(inner)), session_(xeus::new_xguid().c_str()) {
    inner_->register_shell_listener([this](xeus::xmessage m) { receive(std::move(m), true); });
    inner_->register_control_listener([this](xeus::xmessage m) { receive(std::move(m), false); });
    inner_->register_stdin_listener(
        [this](xeus::xmessage m) { notify_stdin_listener(std::move(m)); });
    inner_->register_internal_listener(
        [this](nl::json m) { return notify_internal_listener(std::move(m)); });
  }

 private:
  void receive(xeus::xmessage msg, bool shell) {
    const nl::json& header = msg.header();
    const char* channel = shell ? "shell" : "control";
    if (!header.is_object() || !header.contains("msg_type") || !header["msg_type"].is_string()) {
      std::cerr << "tessel-kernel: dropped a message on " << channel
                << " whose header has no msg_type: " << shortDump(header) << std::endl;
      return;
    }
    std::string type = header["msg_type"].get<std::string>();
    std::optional<std::string> problem = requestProblem(type, msg.content());
    if (!problem) {
      shell ? notify_shell_listener(std::move(msg)) : notify_control_listener(std::move(msg));
      return;
    }
    std::cerr << "tessel-kernel: bad " << type << " on " << channel << ": " << *problem
              << std::endl;
    if (type.starts_with("comm_") && type != "comm_info_request") return;  // no replies
    bool known = false;
    for (const RequestSpec& s : specs()) known = known || type == s.msgType;
    nl::json content = {{"status", "error"},
                        {"ename", known ? "BadRequest" : "UnknownMessageType"},
                        {"evalue", *problem},
                        {"traceback", nl::json::array()}};
    publishStatus("busy", header, shell);
    xeus::xmessage reply(msg.identities(), xeus::make_header(replyType(type), "tessel", session_),
                         header, nl::json::object(), std::move(content), xeus::buffer_sequence());
    shell ? inner_->send_shell(std::move(reply)) : inner_->send_control(std::move(reply));
    publishStatus("idle", header, shell);
  }

  void publishStatus(const char* state, const nl::json& parent, bool shell) {
    xeus::xpub_message status("kernel.status", xeus::make_header("status", "tessel", session_),
                              parent, nl::json::object(), {{"execution_state", state}},
                              xeus::buffer_sequence());
    inner_->publish(std::move(status), shell ? xeus::channel::SHELL : xeus::channel::CONTROL);
  }

  xeus::xcontrol_messenger& get_control_messenger_impl() override {
    return inner_->get_control_messenger();
  }
  void send_shell_impl(xeus::xmessage m) override { inner_->send_shell(std::move(m)); }
  void send_control_impl(xeus::xmessage m) override { inner_->send_control(std::move(m)); }
  void send_stdin_impl(xeus::xmessage m) override { inner_->send_stdin(std::move(m)); }
  void publish_impl(xeus::xpub_message m, xeus::channel c) override {
    inner_->publish(std::move(m), c);
  }
  void start_impl(xeus::xpub_message m) override { inner_->start(std::move(m)); }
  void abort_queue_impl(const listener& l, long interval) override {
    inner_->abort_queue(l, interval);
  }
  void stop_impl() override { inner_->stop(); }
  void update_config_impl(xeus::xconfiguration& config) const override {
    inner_->update_config(config);
  }

  std::unique_ptr<xeus::xserver> inner_;
  std::string session_;
};

}  // namespace

std::optional<std::string> requestProblem(const std::string& msgType, const nl::json& content) {
  for (const RequestSpec& spec : specs()) {
    if (msgType != spec.msgType) continue;
    if (!content.is_object())
      return "the content must be a JSON object, not " + std::string(content.type_name());
    for (const Field& f : spec.fields) {
      auto it = content.find(f.name);
      if (it == content.end()) {
        if (f.required) return "content." + std::string(f.name) + " is missing";
        continue;
      }
      if (!hasKind(*it, f.kind))
        return "content." + std::string(f.name) + " must be " + kindText(f.kind) + ", not " +
               it->type_name() + " (" + shortDump(*it) + ")";
    }
    return std::nullopt;
  }
  return "unknown message type '" + msgType + "'";
}

std::unique_ptr<xeus::xserver> makeCheckedServer(xeus::xcontext& context,
                                                 const xeus::xconfiguration& config,
                                                 nl::json::error_handler_t eh) {
  return std::make_unique<CheckedServer>(xeus::make_xserver_zmq(context, config, eh));
}

}  // namespace tessel::kernel
