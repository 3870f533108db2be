import { useCallback } from "react";
import { useNavigate } from "react-router";
import { session } from "./session";

export function useLogout() {
  const navigate = useNavigate();
  return useCallback(() => {
    session.clear();
    navigate("/", { replace: true });
  }, [navigate]);
}
